#!/usr/bin/env bash
# Full fine-tuning of Qwen2.5-7B-Instruct on 4 GPUs, with a ZeRO-3 + CPU offload config from this repo.
# Run from the repository root.
export NPROC_PER_NODE=4
export CUDA_VISIBLE_DEVICES=0,1,2,3
DS_CONFIG=../configs/ds_config_zero3_offload.json

swift sft \
    --model Qwen/Qwen2.5-7B-Instruct \
    --tuner_type full \
    --dataset 'AI-ModelScope/alpaca-gpt4-data-en#20000' \
    --torch_dtype bfloat16 \
    --per_device_train_batch_size 2 \
    --gradient_accumulation_steps 4 \
    --learning_rate 1e-5 \
    --max_length 4096 \
    --gradient_checkpointing true \
    --deepspeed "$DS_CONFIG" \
    --save_only_model true \
    2>&1 | tee train.log
