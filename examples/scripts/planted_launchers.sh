#!/usr/bin/env bash
# PLANTED PROBLEMS (checked by test/unit/launch-examples.test.ts):
#   line 12 cuda-visible-devices-ignored   the deepspeed launcher ignores CUDA_VISIBLE_DEVICES with --include/--num_gpus
#   line 13 launcher-num-with-include       --num_gpus together with --include
#   line 16 preset-not-valid-here           zero3 is an ms-swift preset; the HF Trainer needs a JSON path
#   line 19 torchrun-invalid-value          --nproc_per_node takes an integer or auto/cpu/gpu/xpu
#   line 20 deepspeed-config-not-found      ds_config_zero2.json is not next to this script or at the root
#   line 23 accelerate-flag-fills-auto      --zero_stage next to --deepspeed_config_file only fills an "auto"
#   line 23 accelerate-invalid-value        --zero_stage takes 0-3
#   line 24 accelerate-flag-fills-auto      --mixed_precision likewise
#   line 24 accelerate-invalid-value        --mixed_precision takes no|fp16|bf16|fp8
CUDA_VISIBLE_DEVICES=0,1 \
deepspeed --num_gpus 2 --include localhost:0,1 \
    train.py \
    --model_name_or_path Qwen/Qwen3-8B \
    --deepspeed zero3 \
    --bf16

torchrun --nproc_per_node=eight train.py \
    --deepspeed ds_config_zero2.json

accelerate launch --use_deepspeed --deepspeed_config_file ../configs/ds_config_zero2.json \
    --zero_stage 4 \
    --mixed_precision bf32 \
    train.py --model_name_or_path Qwen/Qwen3-8B
