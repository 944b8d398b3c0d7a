#!/usr/bin/env bash
# PLANTED PROBLEMS (checked by test/unit/launch-examples.test.ts):
#   line 9  cuda-devices-without-nproc      4 GPUs visible, NPROC_PER_NODE unset: one process, device_map + DeepSpeed fails
#   line 12 trailing-space-after-backslash  a space after the backslash ends the command early
#   line 14 deepspeed-with-fsdp             --fsdp and --deepspeed together
#   line 15 unknown-deepspeed-preset        zero_3 is not a preset (zero3)
#   line 21 deepspeed-unsupported-subcommand  swift infer does not take --deepspeed
#   line 23 deepspeed-config-not-found      the JSON file does not exist
CUDA_VISIBLE_DEVICES=0,1,2,3 \
swift sft \
    --model Qwen/Qwen2.5-7B-Instruct \
    --tuner_type lora \ 
    --torch_dtype bfloat16 \
    --fsdp fsdp2 \
    --deepspeed zero_3

# Inference after training.
CUDA_VISIBLE_DEVICES=0 \
swift infer \
    --model Qwen/Qwen2.5-7B-Instruct \
    --deepspeed zero3

swift pt --model Qwen/Qwen2.5-7B --deepspeed ../configs/ds_config_zero3_typo.json
