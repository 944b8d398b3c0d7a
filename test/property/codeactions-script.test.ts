/**
 * Every code action ZeRO Lens offers on a launch script, on 2,000 generated scripts (every launcher,
 * misspelled and misplaced flags, --teacher_deepspeed before an open quote, environment after the command,
 * broken continuations, comments, CRLF): each action offered for each diagnostic is checked by fixCheck.ts
 * (only the words its title names, a removed flag stops at the end of its value, comments kept).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { getLanguageService } from '../../server/src/languageService';
import { withDefaults } from '../../server/src/settings';
import { memoryHosts } from '../unit/context-hosts';
import { doc } from '../unit/launch-helpers';
import { checkScriptAction } from './fixCheck';

const launcher = fc.constantFrom(
  'swift sft',
  'swift rlhf --rlhf_type gkd',
  'swift rlhf --rlhf_type dpo',
  'deepspeed --num_gpus 8 train.py',
  'deepspeed --num_gpus 2 --include localhost:0,1 train.py',
  'torchrun --nproc_per_node 8 train.py',
  'python train.py',
  'python -m swift.cli.sft',
  'accelerate launch --config_file acc.yaml train.py',
  'accelerate launch --zero_stage 5 train.py',
  'llamafactory-cli train lf.yaml',
  'NPROC_PER_NODE=4 swift sft',
  'CUDA_VISIBLE_DEVICES=0,1 swift sft',
);

const flag = fc.constantFrom(
  '--model Qwen/Qwen3-8B',
  '--model_name_or_path Qwen/Qwen3-8B',
  '--deepspeed zero3',
  '--deepspeed zero4',
  '--deepspeed ds.json',
  '--deepspeed ds_confg.json',
  '--deepspeed missing.json',
  "--deepspeed '{\"zero_optimization\": {\"stage\": 2}}'",
  "--deepspeed '{zero_optimization: {stage: 2}}'",
  '--teacher_deepspeed zero3',
  '--teacher_deepspeed zero2',
  '--teacher_model Qwen/Qwen3-8B',
  '--fsdp full_shard',
  '--train_type lora',
  '--torch_dtype bf16',
  '--torch_dtype bfloat16',
  '--quant_bits 4',
  '--lora_rank 8',
  '--per_device_train_batch_size 2',
  '--gradient_accumulation_steps 4',
  '--max_length 4096',
  '--num_train_epochs 1',
  '--output_dir out',
  '--bf16 true',
  'NPROC_PER_NODE=2',
  '"oops --lora_rank 8',
  "'half open",
);

const script = fc.record({
  shebang: fc.boolean(),
  env: fc.array(fc.constantFrom('export NPROC_PER_NODE=8', 'nproc_per_node=2', 'export CUDA_VISIBLE_DEVICES=0,1,2,3', 'MASTER_PORT=29500', '# settings'), { maxLength: 3 }),
  commands: fc.array(
    fc.record({
      launcher,
      flags: fc.array(flag, { maxLength: 7 }),
      continued: fc.boolean(),
      comments: fc.constantFrom(0, 0, 1, 2),
      spaceAfterBackslash: fc.constantFrom(false, false, false, true),
      blankLine: fc.constantFrom(false, false, false, true),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  crlf: fc.constantFrom(false, false, false, true),
});

/** The script as a person would write it: one flag a line behind ` \`, or all on one line. */
type Script = typeof script extends fc.Arbitrary<infer T> ? T : never;

function render(s: Script): string {
  const lines: string[] = [];
  if (s.shebang) lines.push('#!/bin/bash');
  lines.push(...s.env);
  for (const c of s.commands) {
    if (!c.continued) {
      lines.push([c.launcher, ...c.flags].join(' ') + (c.comments ? ' # run' : ''));
      continue;
    }
    const parts = [c.launcher, ...c.flags];
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const pad = i === 0 ? '' : '    ';
      if (!last && c.comments === 2 && i === 1) lines.push('    # a comment inside the command');
      lines.push(`${pad}${part}${last ? '' : c.spaceAfterBackslash && i === 1 ? ' \\ ' : ' \\'}`);
      if (!last && c.blankLine && i === 1) lines.push('');
    });
  }
  const text = lines.join('\n') + '\n';
  return s.crlf ? text.replace(/\n/g, '\r\n') : text;
}

const files = {
  'ds.json': '{"zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": "auto"}',
  'acc.yaml': 'distributed_type: DEEPSPEED\nnum_processes: 8\ndeepspeed_config:\n  zero_stage: 2\n',
  'lf.yaml': 'model_name_or_path: Qwen/Qwen3-8B\nstage: sft\nfinetuning_type: full\ndeepspeed: ds.json\n',
};
const ls = getLanguageService(memoryHosts(files));
const settings = withDefaults({ gpuMemoryGiB: 24 });
const runs = Number(process.env.PROPERTY_RUNS ?? 2000);

test(`every code action on ${runs} generated launch scripts does exactly what its title says`, { timeout: 600_000 }, async () => {
  let documents = 0;
  let actions = 0;
  await fc.assert(
    fc.asyncProperty(script, async (s) => {
      const document = doc(`train_${documents++}.sh`, render(s));
      const diagnostics = await ls.doValidation(document, settings);
      for (const diagnostic of diagnostics) {
        for (const action of await ls.getCodeActions(document, diagnostic.range, { diagnostics: [diagnostic], only: ['quickfix'] }, settings)) {
          if (!action.edit) continue;
          actions++;
          checkScriptAction(document, action, diagnostic);
        }
      }
    }),
    { numRuns: runs, verbose: 1 },
  );
  assert.ok(documents >= runs);
  assert.ok(actions > runs / 2, `${actions} actions checked on ${documents} scripts`);
  console.log(`checked ${actions} code actions on ${documents} generated scripts`);
});
