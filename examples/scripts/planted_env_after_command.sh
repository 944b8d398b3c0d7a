#!/usr/bin/env bash
# PLANTED PROBLEMS (checked by test/unit/launch-examples.test.ts):
#   line 13 env-after-command         NPROC_PER_NODE written after `swift sft` (ms-swift #3681)
#   line 15 quant-bits-without-method --quant_bits 4 without --quant_method loads the model unquantised
#   line 17 unknown-deepspeed-preset  zero2-offload is the ms-swift 2.x name (zero2_offload)
CUDA_VISIBLE_DEVICES=0,1 \
swift sft \
    --model Qwen/Qwen3-8B \
    --tuner_type lora \
    --dataset 'AI-ModelScope/alpaca-gpt4-data-en#2000' \
    --torch_dtype bfloat16 \
    --max_length 4096 \
    NPROC_PER_NODE=2 \
    --lora_rank 16 \
    --quant_bits 4 \
    --per_device_train_batch_size 1 \
    --deepspeed zero2-offload
