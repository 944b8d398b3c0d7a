#!/usr/bin/env bash
# PLANTED PROBLEMS (checked by test/unit/launch-examples.test.ts):
#   line 7  broken-continuation       blank line after the NPROC_PER_NODE prefix line (ms-swift #5328)
#   line 12 train-type-renamed        --train_type is the 3.x name of --tuner_type
#   line 13 invalid-torch-dtype       bf16 is not a --torch_dtype value (bfloat16)
CUDA_VISIBLE_DEVICES=0,1 \
NPROC_PER_NODE=2 \

swift sft \
    --model Qwen/Qwen2.5-7B-Instruct \
    --dataset 'swift/self-cognition#1000' \
    --train_type lora \
    --torch_dtype bf16 \
    --max_length 2048 \
    --deepspeed zero2
