/**
 * Scripts whose DeepSpeed config their Python program builds from flags (DeepSpeed-Chat's main.py, OpenRLHF's
 * openrlhf.cli.*): the estimate uses the config that program builds, each value sourced to the flag and the builder.
 * Excerpts of real scripts, each with its URL; each test failed before the change ("names no DeepSpeed config").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { withDefaults } from '../../server/src/settings';
import { describeSource } from '../../server/src/protocol';
import { estimateFeatures, memoryHosts, scriptDocument, shown } from './context-hosts';
import { runCli } from './cli-helpers';
import { doc, service, settings } from './launch-helpers';
import type { MarkupContent } from 'vscode-languageserver-types';

async function analysisOf(name: string, text: string, gpusPerNode?: number) {
  const { analyses } = estimateFeatures(memoryHosts({ [name]: text }));
  return analyses.training.analyzeDocument(scriptDocument(name, text), 'launch-script', withDefaults({ gpusPerNode }));
}

// https://github.com/01-ai/Yi/blob/03c9c1b35f76c54a6467ac7783ec997c01e857c0/finetune/scripts/run_sft_Yi_6b.sh
const yi = `#/usr/bin/env bash

cd "$(dirname "\${BASH_SOURCE[0]}")/../sft/"

deepspeed main.py \\
	--data_path ../yi_example_dataset/ \\
	--model_name_or_path /base_model \\
	--per_device_train_batch_size 1 \\
	--per_device_eval_batch_size 1 \\
	--max_seq_len 4096 \\
	--learning_rate 2e-6 \\
	--weight_decay 0. \\
	--num_train_epochs 4 \\
	--training_debug_steps 20 \\
	--gradient_accumulation_steps 1 \\
	--lr_scheduler_type cosine \\
	--num_warmup_steps 0 \\
	--seed 1234 \\
	--gradient_checkpointing \\
	--zero_stage 2 \\
	--deepspeed \\
	--offload \\
	--output_dir ./finetuned_model
`;

test("Yi's run_sft_Yi_6b.sh: DeepSpeed-Chat's main.py builds ZeRO-2 with CPU optimizer offload from --zero_stage 2 --offload", async () => {
  const { analysis, hasConfig } = await analysisOf('run_sft_Yi_6b.sh', yi);
  assert.equal(hasConfig, true);
  const c = analysis.context;
  assert.equal(analysis.current.stage, 2);
  assert.equal(analysis.current.offloadOptimizer, 'cpu');
  assert.equal(analysis.current.offloadParam, 'none', 'ZeRO-2 offloads no parameters');
  assert.match(describeSource(analysis.inputSources.stage), /--zero_stage 2 --offload \(DeepSpeed-Chat builds the config\)/);
  assert.deepEqual(shown(c.microBatchSize), { value: 1, source: 'run_sft_Yi_6b.sh line 8' });
  assert.deepEqual(shown(c.gradientAccumulationSteps), { value: 1, source: 'run_sft_Yi_6b.sh line 15' });
});

// https://github.com/microsoft/DeepSpeedExamples/blob/f8e25c5d96b81d9f8c6456d944b17e242087c907/applications/DeepSpeed-Chat/training/step1_supervised_finetuning/training_scripts/llama2/run_llama2_7b_lora.sh
// (its ZERO_STAGE=$2 default 3 written as the value; --dtype bf16 as Yi's and newer DeepSpeed-Chat scripts pass it)
const dschatStep1 = `deepspeed main.py \\
   --data_path Dahoas/rm-static \\
   --model_name_or_path meta-llama/Llama-2-7b-hf \\
   --per_device_train_batch_size 4 \\
   --max_seq_len 512 \\
   --gradient_accumulation_steps 1 \\
   --gradient_checkpointing \\
   --zero_stage 3 \\
   --dtype bf16 \\
   --deepspeed \\
   --output_dir out
`;

test('DeepSpeed-Chat step1: --zero_stage 3 without --offload is ZeRO-3 with nothing offloaded, bf16 from --dtype', async () => {
  const { analysis, hasConfig } = await analysisOf('run_llama2_7b.sh', dschatStep1);
  assert.equal(hasConfig, true);
  assert.equal(analysis.current.stage, 3);
  assert.equal(analysis.current.offloadOptimizer, 'none');
  assert.equal(analysis.current.offloadParam, 'none');
  assert.deepEqual(shown(analysis.context.microBatchSize), { value: 4, source: 'run_llama2_7b.sh line 4' });
});

test('an ordinary script with --zero_stage is not taken for DeepSpeed-Chat: only main.py is', async () => {
  const { hasConfig } = await analysisOf('other.sh', dschatStep1.replace('main.py', 'train.py'));
  assert.equal(hasConfig, false);
});

// OpenRLHF's examples/scripts/train_sft.sh as the corpus holds it (test/corpus/manifest.json gives its URL and commit):
// --zero_stage 2 --param_dtype bf16; and with the --zero_stage 3 --adam_offload its other scripts pass.
const openrlhfCorpus = readFileSync(path.join(__dirname, '..', 'corpus', 'files', 'OpenRLHF__OpenRLHF', 'examples', 'scripts', 'train_sft.sh'), 'utf8');
const openrlhf = openrlhfCorpus.replace('--zero_stage 2 \\\n', '--zero_stage 3 \\\n   --adam_offload \\\n');

test("OpenRLHF's train_sft.sh: openrlhf.cli.train_sft builds ZeRO-3 with --adam_offload as CPU optimizer offload, parameters on the GPU", async () => {
  const { analysis, hasConfig } = await analysisOf('train_sft.sh', openrlhf);
  assert.equal(hasConfig, true);
  assert.equal(analysis.current.stage, 3);
  assert.equal(analysis.current.offloadOptimizer, 'cpu');
  assert.equal(analysis.current.offloadParam, 'none', 'OpenRLHF passes offload=False for trained models');
  assert.match(describeSource(analysis.inputSources.stage), /--zero_stage 3 --adam_offload --param_dtype bf16 \(OpenRLHF builds the config\)/);
  assert.deepEqual(shown(analysis.context.microBatchSize), { value: 2, source: 'train_sft.sh line 10' });
  // OpenRLHF sets train_batch_size from --train_batch_size; DeepSpeed derives the accumulation from it: 256 / (2 × 8).
  const eight = await analysisOf('train_sft.sh', openrlhf, 8);
  assert.equal(eight.analysis.context.gradientAccumulationSteps.value, 16);
  assert.equal(eight.analysis.context.gradientAccumulationSteps.source.kind, 'config-derived');
  const as = await analysisOf('train_sft.sh', openrlhfCorpus);
  assert.equal(as.analysis.current.stage, 2);
  assert.equal(as.analysis.current.offloadOptimizer, 'none');
  assert.equal(as.analysis.context.dtype.value, 'bf16');
});

test('zero-lens estimate on Yi\'s script prints the estimate with the builder as the source', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-dschat-'));
  writeFileSync(path.join(dir, 'run_sft_Yi_6b.sh'), yi.replace('/base_model', '01-ai/Yi-6B'));
  const r = await runCli(['estimate', 'run_sft_Yi_6b.sh', '--gpus-per-node', '8'], dir);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /DeepSpeed config: --zero_stage 2 --offload \(DeepSpeed-Chat builds the config\)/);
});

test('no diagnostic on these scripts claims a DeepSpeed error, and the hover on --zero_stage says who builds the config', async () => {
  for (const [name, text] of [['run_sft_Yi_6b.sh', yi], ['run_llama2_7b.sh', dschatStep1], ['train_sft.sh', openrlhf]]) {
    const { ls } = service({ [name]: text });
    const document = doc(name, text);
    const diagnostics = await ls.doValidation(document, settings());
    assert.deepEqual(diagnostics.filter((d) => d.severity === 1).map((d) => `${d.code}: ${d.message}`), [], name);
    const hover = await ls.doHover(document, document.positionAt(text.indexOf('--zero_stage') + '--zero_stage '.length), settings());
    const value = (hover?.contents as MarkupContent | undefined)?.value ?? '';
    assert.match(value, /\*\*DeepSpeed via --(ds\.)?zero_stage \d[^*]* \((DeepSpeed-Chat|OpenRLHF) builds the config\)\*\*: ZeRO-\d/, name);
    assert.doesNotMatch(value, /accelerate/i, name);
    // As DeepSpeed runs it: below ZeRO-3 no parameter offload, whatever DeepSpeed-Chat writes for --offload.
    if (name === 'run_sft_Yi_6b.sh') assert.match(value, /ZeRO-2, optimizer offload cpu, parameter offload none/);
  }
});

// https://github.com/Tele-AI/Telechat/blob/1dcd13c4c3305318fcb97d45028e53178eb33a40/deepspeed-telechat/sft/run_telechat_lora.sh
// (from its training command; its main.py passes --precision to get_train_ds_config, Telechat bcdced4e sft/main.py)
const telechatLora = `export CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7

OUTPUT=telechat-lora-test
ZERO_STAGE=3
MAX_LEN=4096
MODEL_PATH=$1

if [ "$ZERO_STAGE" == "" ]; then
    ZERO_STAGE=3
fi

deepspeed --master_port 29500 main.py \\
   --model_name_or_path $MODEL_PATH \\
   --with_loss_mask \\
   --per_device_train_batch_size 1 \\
   --max_seq_len $MAX_LEN \\
   --gradient_accumulation_steps 4 \\
   --precision fp16 \\
   --gradient_checkpointing \\
   --zero_stage $ZERO_STAGE \\
   --deepspeed \\
   --lora_dim 8 \\
   --output_dir $OUTPUT \\
   2>&1 | tee $OUTPUT/training.log
`;

test("Telechat's run_telechat_lora.sh: ZeRO-3 from --zero_stage $ZERO_STAGE, its precision from --precision", async () => {
  const { analysis, hasConfig } = await analysisOf('run_telechat_lora.sh', telechatLora);
  assert.equal(hasConfig, true);
  assert.equal(analysis.current.stage, 3);
  assert.equal(analysis.current.offloadOptimizer, 'none');
  assert.equal(analysis.configPath, '--zero_stage 3 --precision fp16 (DeepSpeed-Chat builds the config)');
  assert.deepEqual(shown(analysis.context.gpusPerNode), { value: 8, source: 'run_telechat_lora.sh line 1' });
  assert.deepEqual(shown(analysis.context.gradientAccumulationSteps), { value: 4, source: 'run_telechat_lora.sh line 17' });
  const bf16 = await analysisOf('run_telechat_lora.sh', telechatLora.replace('--precision fp16', '--precision bf16'));
  assert.equal(bf16.analysis.context.dtype.value, 'bf16');
});
