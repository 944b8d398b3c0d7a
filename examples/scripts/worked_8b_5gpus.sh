#!/bin/bash
# Worked case 1 (docs/worked-cases.md): an 8B model on 5 GPUs, which tutorials put at 96 / 45 / 32 / 19 GB for
# ZeRO-0..3 (2+2+8 bytes per parameter). Hover --deepspeed: ZeRO Lens counts the fp32 master weights, the optimizer
# step's fp32 gradient copy, the activations of 2048-token packed samples, the allocator and the CUDA context.
CUDA_VISIBLE_DEVICES=0,1,2,3,4 \
NPROC_PER_NODE=5 \
swift sft \
    --model meta-llama/Llama-3.1-8B \
    --tuner_type full \
    --torch_dtype bfloat16 \
    --dataset 'AI-ModelScope/alpaca-gpt4-data-en' \
    --max_length 2048 \
    --packing true \
    --attn_impl flash_attn \
    --per_device_train_batch_size 1 \
    --optim adamw_torch_fused \
    --deepspeed zero2
