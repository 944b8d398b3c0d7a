#!/bin/bash
# Worked case 2 (docs/worked-cases.md): a 7B model on 4 GPUs, which tutorials put at 84 / 42 / 31.5 / 21 GB for
# ZeRO-0..3. Hover --deepspeed for every stage as ZeRO Lens counts it; the hint names the phase that sets the peak.
CUDA_VISIBLE_DEVICES=0,1,2,3 \
NPROC_PER_NODE=4 \
swift sft \
    --model Qwen/Qwen2.5-7B \
    --tuner_type full \
    --torch_dtype bfloat16 \
    --dataset 'AI-ModelScope/alpaca-gpt4-data-en' \
    --max_length 2048 \
    --packing true \
    --attn_impl flash_attn \
    --per_device_train_batch_size 1 \
    --optim adamw_torch_fused \
    --deepspeed zero3
