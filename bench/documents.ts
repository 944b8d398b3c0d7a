/**
 * The three documents both servers are measured on: a typical config, a 2,000-line one and a 1 MB one.
 * Generated deterministically so every run measures the same text.
 */

export interface BenchDocument {
  name: string;
  text: string;
}

/** A realistic ZeRO-3 config of about 60 lines (HF Trainer style, with optimizer and scheduler). */
export function typicalConfig(): string {
  return `{
  "train_batch_size": "auto",
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": "auto",
  "gradient_clipping": 1.0,
  "steps_per_print": 2000,
  "wall_clock_breakdown": false,
  "bf16": {
    "enabled": true
  },
  "fp16": {
    "enabled": false,
    "loss_scale": 0,
    "loss_scale_window": 1000,
    "initial_scale_power": 16,
    "hysteresis": 2,
    "min_loss_scale": 1
  },
  "optimizer": {
    "type": "AdamW",
    "params": {
      "lr": "auto",
      "betas": "auto",
      "eps": "auto",
      "weight_decay": "auto"
    }
  },
  "scheduler": {
    "type": "WarmupDecayLR",
    "params": {
      "warmup_min_lr": "auto",
      "warmup_max_lr": "auto",
      "warmup_num_steps": "auto",
      "total_num_steps": "auto"
    }
  },
  "zero_optimization": {
    "stage": 3,
    "offload_optimizer": {
      "device": "cpu",
      "pin_memory": true
    },
    "offload_param": {
      "device": "none",
      "pin_memory": true
    },
    "overlap_comm": true,
    "contiguous_gradients": true,
    "sub_group_size": 1e9,
    "reduce_bucket_size": "auto",
    "stage3_prefetch_bucket_size": "auto",
    "stage3_param_persistence_threshold": "auto",
    "stage3_max_live_parameters": 1e9,
    "stage3_max_reuse_distance": 1e9,
    "stage3_gather_16bit_weights_on_model_save": true
  },
  "activation_checkpointing": {
    "partition_activations": false,
    "cpu_checkpointing": false
  }
}
`;
}

/**
 * Many sections and long arrays, as configs that carry compression settings do: one weight-quantization
 * group per block of layers, each listing its modules.
 */
function largeConfig(targetLines: number, arrayLength: number): string {
  const lines = typicalConfig().trimEnd().split('\n').slice(0, -1);
  lines[lines.length - 1] += ',';
  lines.push('  "compression_training": {');
  lines.push('    "weight_quantization": {');
  lines.push('      "shared_parameters": { "enabled": true, "quantizer_kernel": false, "schedule_offset": 0, "quantize_groups": 1 },');
  lines.push('      "different_groups": {');
  const footer = ['      }', '    }', '  },', '  "torch_autocast": {', '    "enabled": false,', '    "lower_precision_safe_modules": [', '      "torch.nn.modules.linear.Linear"', '    ]', '  }', '}'];
  let group = 0;
  while (lines.length + footer.length + arrayLength + 6 < targetLines) {
    if (group > 0) lines[lines.length - 1] += ',';
    lines.push(`        "wq${group}": {`);
    lines.push(`          "params": { "start_bits": 8, "target_bits": 8, "quantization_period": ${50 + group} },`);
    lines.push('          "modules": [');
    for (let i = 0; i < arrayLength; i++) lines.push(`            "model.layers.${group}.${i}.self_attn"${i + 1 < arrayLength ? ',' : ''}`);
    lines.push('          ]');
    lines.push('        }');
    group++;
  }
  lines.push(...footer);
  return lines.join('\n') + '\n';
}

export function twoThousandLineConfig(): string {
  return largeConfig(2040, 40);
}

/** About 1 MB: the same shape with very long arrays. */
export function oneMegabyteConfig(): string {
  let lines = 2000;
  let text = largeConfig(lines, 200);
  while (text.length < 1_000_000) {
    lines = Math.ceil(lines * (1_000_000 / text.length) * 1.02);
    text = largeConfig(lines, 200);
  }
  return text;
}

export function benchDocuments(): BenchDocument[] {
  return [
    { name: 'typical (60 lines)', text: typicalConfig() },
    { name: '2,000 lines', text: twoThousandLineConfig() },
    { name: '1 MB', text: oneMegabyteConfig() },
  ];
}

/** A ms-swift style launch script of about 300 lines: many commands with env prefixes and continuations. */
export function launchScript300(): string {
  const out: string[] = ['#!/usr/bin/env bash', '# Sweep of LoRA runs', 'set -euo pipefail', 'nproc_per_node=4', ''];
  let run = 0;
  while (out.length < 300) {
    out.push(`# run ${run}`);
    out.push('CUDA_VISIBLE_DEVICES=0,1,2,3 \\');
    out.push('NPROC_PER_NODE=$nproc_per_node \\');
    out.push('swift sft \\');
    out.push('    --model Qwen/Qwen3-8B \\');
    out.push('    --tuner_type lora \\');
    out.push(`    --dataset 'AI-ModelScope/alpaca-gpt4-data-zh#${1000 + run}' \\`);
    out.push('    --torch_dtype bfloat16 \\');
    out.push('    --per_device_train_batch_size 1 \\');
    out.push(`    --lora_rank ${8 << (run % 3)} --lora_alpha 32 --target_modules all-linear \\`);
    out.push('    --gradient_accumulation_steps $(expr 16 / $nproc_per_node) \\');
    out.push('    --max_length 4096 \\');
    out.push(`    --deepspeed ${run % 2 ? 'zero3' : 'zero2'}`);
    out.push('');
    run++;
  }
  return out.join('\n');
}
