#!/usr/bin/env bash
# A Hugging Face Trainer script under the DeepSpeed launcher on 4 local GPUs.
deepspeed --num_gpus 4 --master_port 29501 train.py \
    --model_name_or_path meta-llama/Llama-3.1-8B-Instruct \
    --deepspeed ../configs/ds_config_zero2.json \
    --per_device_train_batch_size 2 \
    --gradient_accumulation_steps 8 \
    --gradient_checkpointing \
    --max_seq_length 4096 \
    --bf16 \
    --output_dir out
