/**
 * Words that come from variables and strings (shell/expand.ts): the patterns of real launch scripts, each with
 * the DeepSpeed value found at the place it is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchFactsOfText } from '../../server/src/launch/references';
import { parseShell } from '../../server/src/launch/shell/parser';
import { ScriptExpansions } from '../../server/src/launch/shell/expand';

function refOf(text: string): { chain: string; written: string; at: string; gpus?: number } | undefined {
  const facts = launchFactsOfText('/ws/train.sh', text, ['/ws']).find((f) => f.deepspeed);
  if (!facts?.deepspeed) return undefined;
  const { start, end } = facts.deepspeed.span;
  return { chain: facts.chain.join('>'), written: facts.deepspeed.text, at: text.slice(start, end), gpus: facts.gpusPerNode?.value };
}

test('an unquoted variable that holds arguments is split into them, at the place they are written', () => {
  const text = 'ds_args="--deepspeed ds.json --zero_stage 2"\ndeepspeed --num_gpus 4 train.py $ds_args\n';
  assert.deepEqual(refOf(text), { chain: 'deepspeed>python', written: 'ds.json', at: 'ds.json', gpus: 4 });
  // A quoted "$ds_args" is one word: python receives the whole string as one argument.
  assert.equal(refOf('ds_args="--deepspeed ds.json"\npython train.py "$ds_args"\n')?.written, undefined);
});

test('options grown in steps (options="${options} …") and run through eval', () => {
  const text = [
    'CONFIG_JSON=ds_config.json',
    'options="--num-layers 24"',
    'options="${options} \\',
    '    --deepspeed \\',
    '    --deepspeed_config=${CONFIG_JSON}"',
    'run_cmd="deepspeed --num_gpus 8 pretrain_gpt.py $@ ${options}"',
    'echo ${run_cmd}',
    'eval ${run_cmd}',
    '',
  ].join('\n');
  const ref = refOf(text);
  assert.equal(ref?.written, 'ds_config.json');
  assert.equal(ref?.at, '${CONFIG_JSON}');
  assert.equal(ref?.gpus, 8);
});

test('bash arrays, appended to and run as "${CMD[@]}"', () => {
  const text = 'CMD=(\n    swift sft\n    --model Qwen/Qwen2.5-7B\n)\nif [ -n "$X" ]; then\n    CMD+=(--deepspeed zero3)\nfi\nNPROC_PER_NODE=4 "${CMD[@]}"\n';
  assert.deepEqual(refOf(text), { chain: 'swift', written: 'zero3', at: 'zero3', gpus: 4 });
});

test('job launchers: srun and mpirun options before the command, srun bash -c with exported variables', () => {
  assert.equal(refOf('srun -p ${PARTITION} --gres=gpu:8 --ntasks=16 python -u train.py --deepspeed "zero_stage1_config.json"\n')?.written, 'zero_stage1_config.json');
  assert.equal(refOf('mpirun -n 8 -hostfile /job/hostfile -x NCCL_IB_DISABLE=1 --mca btl ^openib python run.py --deepspeed --deepspeed_config ds.json\n')?.written, 'ds.json');
  const slurm = [
    'export LAUNCHER="python -u -m torch.distributed.launch --nproc_per_node 8 --nnodes 16"',
    'export CMD="pretrain_gpt.py --deepspeed --deepspeed_config ./ds_config.json"',
    "srun --jobid $SLURM_JOBID bash -c '$LAUNCHER --node_rank $SLURM_PROCID $CMD' 2>&1 | tee log.txt",
    '',
  ].join('\n');
  assert.deepEqual(refOf(slurm), { chain: 'torchrun>python', written: './ds_config.json', at: './ds_config.json', gpus: 8 });
});

test('deepspeed.pt, the runner\'s old name, is the deepspeed launcher', () => {
  assert.equal(refOf('deepspeed.pt --num_nodes 1 --num_gpus 2 main.py --deepspeed --deepspeed_config ds.json\n')?.chain, 'deepspeed>python');
});

test('expansion is bounded: a variable that doubles itself does not grow without limit', () => {
  const lines = ['a="--x y"'];
  for (let i = 0; i < 40; i++) lines.push('a="$a $a"');
  lines.push('python train.py $a --deepspeed ds.json');
  const script = parseShell(lines.join('\n') + '\n');
  const started = performance.now();
  const [run] = new ScriptExpansions(script).commandsOf(script.commands[script.commands.length - 1]);
  assert.ok(performance.now() - started < 2000);
  assert.ok(run.words.length < 10_000, `${run.words.length} words`);
  assert.ok(run.words.every((w) => w.start >= 0 && w.end >= w.start && w.end <= script.text.length));
});
