#!/usr/bin/env bash
# Node 0 of 2 (4 GPUs each). Node 1 runs the same script with NODE_RANK=1.
nnodes=2
nproc_per_node=4

CUDA_VISIBLE_DEVICES=0,1,2,3 \
NNODES=$nnodes \
NODE_RANK=0 \
MASTER_ADDR=127.0.0.1 \
MASTER_PORT=29500 \
NPROC_PER_NODE=$nproc_per_node \
swift sft \
    --model Qwen/Qwen2.5-14B-Instruct \
    --tuner_type full \
    --dataset 'AI-ModelScope/alpaca-gpt4-data-zh#20000' \
              'AI-ModelScope/alpaca-gpt4-data-en#20000' \
    --torch_dtype bfloat16 \
    --learning_rate 1e-5 \
    --gradient_accumulation_steps $(expr 32 / $nproc_per_node / $nnodes) \
    --max_length 8192 \
    --deepspeed zero3
