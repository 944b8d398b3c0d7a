#!/usr/bin/env bash
# accelerate with a DeepSpeed config YAML (next to this script); run from the repository root.
CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 \
accelerate launch \
    --config_file examples/scripts/accelerate_deepspeed.yaml \
    --main_process_port 29502 \
    train.py \
    --model_name_or_path Qwen/Qwen3-8B \
    --per_device_train_batch_size 1 \
    --gradient_checkpointing \
    --bf16
