import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractLaunchFacts } from '../../server/src/launch';
import { parseShell } from '../../server/src/launch/shell/parser';
import { environmentFor } from '../../server/src/launch/shell/variables';
import { valueEdit } from '../../server/src/launch/edits/valueEdit';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts, scriptDocument } from './context-hosts';
import { codes, doc, service, settings, workspaceRoot } from './launch-helpers';

/** The binding a name has for the script's last command. */
function valueAtEnd(text: string, name: string) {
  const script = parseShell(text);
  return environmentFor(script, script.commands[script.commands.length - 1]).wordBinding(name);
}

const facts = (text: string) => extractLaunchFacts(doc('train.sh', text), [workspaceRoot]);
const loopWords = (text: string) => facts(text)[0]?.branchDependent?.map((b) => [b.via, b.value, b.loop]);

const sweep = `for lr in 1e-5 2e-5; do
  deepspeed train.py --deepspeed ds_z3.json --learning_rate $lr --per_device_train_batch_size 4
done
for BS in 2 8; do
  NPROC_PER_NODE=8 swift sft --model Qwen/Qwen2.5-7B-Instruct --per_device_train_batch_size $BS --deepspeed zero3
done
echo $BS
`;

test('a for loop binds its name to each word in the body: a flag the estimate does not size by is not read as one value', () => {
  const [hf, swift] = facts(sweep);
  assert.deepEqual([hf?.chain.join('>'), hf?.microBatch?.value, hf?.deepspeed?.kind], ['deepspeed>python', 4, 'file']);
  assert.deepEqual(hf.branchDependent?.map((b) => [b.via, b.value, b.loop, b.uses]), [['--learning_rate $lr', ['1e-5', '2e-5'], 'lr', undefined]]);
  // Both runs happen: the batch-8 one is the one that may not fit, so it is the batch read.
  assert.deepEqual([swift?.microBatch?.value, swift?.microBatch?.isDefault, swift?.gpusPerNode?.value, swift?.model?.value], [8, undefined, 8, 'Qwen/Qwen2.5-7B-Instruct']);
  assert.deepEqual(swift.branchDependent?.map((b) => [b.via, b.value, b.loop, b.uses]), [['--per_device_train_batch_size $BS', ['2', '8'], 'BS', '8']]);
  // After `done` the name keeps the last word, as bash leaves it.
  assert.equal(valueAtEnd(sweep, 'BS')?.value, '8');
});

/** The estimate's analysis of a script. */
async function analysisOf(text: string) {
  const ls = getLanguageService(memoryHosts({ 'train.sh': text }));
  const found = await ls.getDocumentAnalysis(scriptDocument('train.sh', text), defaultSettings);
  return found!.analysis;
}

test('the estimate takes the run of a loop that needs the most memory, and says which', async () => {
  const batch = await analysisOf(sweep.split('\n').slice(3).join('\n'));
  assert.equal(batch.context.microBatchSize.value, 8);
  assert.ok(batch.notes.includes('--per_device_train_batch_size $BS takes each value of the `for BS` loop (2, 8): the estimate uses 8, the run that needs the most memory.'), batch.notes.join('\n'));
  // Fewer GPUs shard less: the 2-GPU run needs the most per GPU.
  const gpus = await analysisOf('for N in 8 2 4; do\n  NPROC_PER_NODE=$N swift sft --model Qwen/Qwen2.5-7B-Instruct --per_device_train_batch_size 2 --deepspeed zero3\ndone\n');
  assert.equal(gpus.context.gpusPerNode?.value, 2);
  assert.ok(gpus.notes.includes('NPROC_PER_NODE=$N takes each value of the `for N` loop (8, 2, 4): the estimate uses 2, the run that needs the most memory.'), gpus.notes.join('\n'));
  const length = await analysisOf('for L in 4096 1024; do\n  swift sft --model Qwen/Qwen2.5-7B-Instruct --max_length $L --lora_rank ${L} --deepspeed zero3\ndone\n');
  assert.deepEqual([length.context.sequenceLength.value, length.context.lora?.value.rank], [4096, 4096]);
});

test('a loop over values the estimate cannot order is still not read: models, unknown words', async () => {
  const models = 'for M in Qwen/Qwen2.5-7B-Instruct Qwen/Qwen2.5-72B-Instruct; do\n  swift sft --model $M --deepspeed zero3\ndone\n';
  assert.deepEqual(loopWords(models), [['--model $M', ['Qwen/Qwen2.5-7B-Instruct', 'Qwen/Qwen2.5-72B-Instruct'], 'M']]);
  assert.equal(facts(models)[0]?.model, undefined);
  const unknown = 'for BS in 2 $(cat bs.txt); do\n  swift sft --model m --per_device_train_batch_size $BS\ndone\n';
  assert.deepEqual([facts(unknown)[0]?.microBatch?.isDefault, facts(unknown)[0]?.branchDependent?.[0]?.uses], [true, undefined]);
  const note = (await analysisOf(unknown)).notes.find((n) => n.includes('for BS'));
  assert.equal(note, '--per_device_train_batch_size $BS takes each value of the `for BS` loop (2, $(cat bs.txt)), so it is not read.');
  // Only one branch of an if runs, and only running it tells which: the costliest, as for a loop, so the estimate errs
  // high (the note says so: launch-shell-branches.test.ts).
  const branch = 'if [ -f big ]; then BS=8; else BS=2; fi\nswift sft --model m --per_device_train_batch_size $BS\n';
  assert.deepEqual([facts(branch)[0]?.microBatch?.value, facts(branch)[0]?.branchDependent?.[0]?.uses, facts(branch)[0]?.branchDependent?.[0]?.loop], [8, '8', undefined]);
});

test('assignments in the body are what the last iteration leaves; one word is a value', () => {
  const text = 'for BS in 2 8; do\n  GBS=$((BS * 8))\n  OUT=out_$BS\ndone\necho\n';
  assert.deepEqual(['BS', 'GBS', 'OUT'].map((n) => valueAtEnd(text, n)?.value), ['8', '64', 'out_8']);
  // Inside the body a value the loop gives is each of its values.
  assert.deepEqual(valueAtEnd('for BS in 2 8; do\n  echo\n', 'BS')?.branches, ['2', '8']);
  const one = 'for BS in 4 4; do NPROC_PER_NODE=2 swift sft --model m --per_device_train_batch_size $BS --deepspeed zero3; done\n';
  assert.deepEqual([facts(one)[0]?.microBatch?.value, facts(one)[0]?.branchDependent], [4, undefined]);
});

test('loop words: variables, word splitting, simple brace lists and arrays; what the script cannot expand is shown as written', () => {
  const at = (text: string) => valueAtEnd(text + '\n  echo\n', 'X');
  assert.deepEqual(at('A=7b; L="1 2"\nfor X in $A "$L" {3,4} v{5,6}; do')?.branches, ['7b', '1 2', '3', '4', 'v5', 'v6']);
  assert.deepEqual(at('L="1 2"\nfor X in $L; do')?.branches, ['1', '2']);
  assert.deepEqual(at('ARR=(2 4)\nfor X in "${ARR[@]}"; do')?.branches, ['2', '4']);
  assert.deepEqual(at('for X in configs/*.json $(cat m.txt) {1..3}; do')?.branches, ['configs/*.json', '$(cat m.txt)', '{1..3}']);
  // `for X in; do` runs nothing: X is not set.
  assert.equal(valueAtEnd('X=1\nfor X in; do echo; done\necho\n', 'X')?.value, '1');
});

test('C-style for and while/until loops bind nothing; their bodies are still read, do and done are no words of the command', () => {
  const cStyle = 'for ((i=0; i<3; i++)); do\n  NPROC_PER_NODE=2 swift sft --model m --per_device_train_batch_size 2 --deepspeed zero3\ndone\necho\n';
  assert.equal(valueAtEnd(cStyle, 'i'), undefined);
  const [f] = facts(cStyle);
  assert.deepEqual([f?.chain.join('>'), f?.microBatch?.value, f?.branchDependent], ['swift', 2, undefined]);
  const reading = 'while read -r MODEL; do NPROC_PER_NODE=2 swift sft --model $MODEL --per_device_train_batch_size 2 --deepspeed zero3; done < models.txt\n';
  const [w] = facts(reading);
  assert.deepEqual([w?.chain.join('>'), w?.microBatch?.value, w?.model, w?.branchDependent], ['swift', 2, undefined, undefined]);
  const inner = (loop: string) => `for BS in 2 8; do\n  ${loop}; do echo; done\n  swift sft --model m --per_device_train_batch_size $BS\ndone\n`;
  for (const loop of ['while false', 'until [ "$N" -gt 2 ]', 'for ((;;))']) {
    assert.deepEqual(loopWords(inner(loop)), [['--per_device_train_batch_size $BS', ['2', '8'], 'BS']], `${loop}'s done closes that loop, not the for around it`);
  }
});

test('nested loops, an if inside a loop and a loop inside an if', () => {
  const nested = 'for M in a b; do\n  for BS in 2 8; do\n    echo\n  done\n  swift sft --model $M --per_device_train_batch_size $BS\ndone\n';
  assert.deepEqual(loopWords(nested), [['--model $M', ['a', 'b'], 'M']]);
  const ifInside = 'for BS in 2 8; do if [ "$BS" = 2 ]; then GA=4; fi; done\nMODE=x\nif [ "$MODE" = x ]; then\n  for N in 4; do swift sft --model m --gradient_accumulation_steps $GA --per_device_train_batch_size $N; done\nfi\n';
  const [f] = facts(ifInside);
  assert.deepEqual([f?.microBatch?.value, f?.gradientAccumulation], [4, undefined]);
  assert.deepEqual(valueAtEnd(ifInside, 'N')?.value, '4');
});

// https://github.com/cloneofsimo/min-max-gpt/blob/056311a5efc2b49884996319670b93087d2e24f3/run.sh, lines 4-10: two nested
// loops over arrays around a deepspeed launch.
test('min-max-gpt run.sh: nested loops over arrays give each value of each loop', () => {
  const text = `export WORLD_SIZE=$(nvidia-smi -L | wc -l)
#!/bin/bash

lrs=(4e-4 8e-4 2e-3 4e-3)
widths=(8 16 32 256)

for lr in "\${lrs[@]}"; do
    for width in "\${widths[@]}"; do
        deepspeed --num_gpus $WORLD_SIZE run_trainer.py --lr $lr --width $width
    done
done
`;
  assert.deepEqual(loopWords(text), [
    ['--lr $lr', ['4e-4', '8e-4', '2e-3', '4e-3'], 'lr'],
    ['--width $width', ['8', '16', '32', '256'], 'width'],
  ]);
});

// https://github.com/microsoft/DeepSpeedExamples/blob/804669f893a21e3fa02a46271e3ef9ff54f9c15f/MoQ/run.sh (test/corpus),
// lines 7-57: `for TSK in cola # sst2 …` runs once, and the ifs in its body test $TSK.
test('DeepSpeedExamples MoQ/run.sh: a loop over one task is that task; the ifs in its body are decided', () => {
  const text = readFileSync(join(__dirname, '../corpus/files/microsoft__DeepSpeedExamples/MoQ/run.sh'), 'utf8');
  const script = parseShell(text);
  const launch = script.commands.find((c) => c.words.some((w) => w.value === 'torch.distributed.launch'))!;
  const env = environmentFor(script, launch);
  assert.deepEqual(['TSK', 'EPOCH_NUM', 'TEST_JSON'].map((n) => env.value(n)), ['cola', '2', 'test.json']);
  const [f] = extractLaunchFacts(doc('MoQ/run.sh', text), [workspaceRoot]);
  assert.deepEqual([f?.microBatch?.value, f?.branchDependent], [24, undefined]);
});

test('bash sets the names `while read` reads at run time: a value assigned before the loop is not theirs, inside or after', async () => {
  const runs = (loop: string) => `MODEL=Qwen/Qwen2.5-7B-Instruct
BS=16
export NPROC_PER_NODE=8
DS_CONFIG=ds_z3_missing.json
${loop}
  swift sft --model $MODEL --per_device_train_batch_size $BS --deepspeed $DS_CONFIG
done${loop.startsWith('while') ? ' < runs.txt' : ''}
echo $BS
`;
  for (const loop of ['while IFS=, read -r MODEL BS DS_CONFIG; do', 'cat runs.txt | while read -r -p "run: " MODEL BS DS_CONFIG; do']) {
    const [f] = facts(runs(loop));
    assert.deepEqual([f?.chain.join('>'), f?.model, f?.microBatch?.value, f?.microBatch?.isDefault, f?.deepspeed?.kind, f?.gpusPerNode?.value], ['swift', undefined, 1, true, 'unresolved', 8], loop);
    // After `done` too: `< file` leaves what the last read read (empty at the end of the file), `| while` a subshell's.
    assert.equal(valueAtEnd(runs(loop), 'BS')?.value, undefined, loop);
  }
  // No diagnostic from the config named before the loop; the loop that does not read DS_CONFIG uses it.
  const { ls } = service();
  const problems = async (loop: string) => codes(await ls.doValidation(doc('train.sh', runs(loop)), settings()));
  assert.deepEqual(await problems('while read -r MODEL BS DS_CONFIG; do'), []);
  assert.deepEqual(await problems('while read -r MODEL BS; do'), ['deepspeed-config-not-found']);
  // `read -a ARR` reads an array; `-d` and `-u` take an argument that is no name.
  const arrays = 'N=4\nread -d "" -u 3 -a ARR N\necho\n';
  assert.deepEqual(['ARR', 'N', 'd'].map((n) => valueAtEnd(arrays, n)?.value), [undefined, undefined, undefined]);
  assert.equal(valueAtEnd(arrays, 'N')?.assignment.name, 'N');
});

test('bash runs `for NAME; do` over "$@", the script\'s arguments: NAME is unknown inside and after', () => {
  const text = 'BS=16\nfor BS; do\n  deepspeed train.py --deepspeed ds_z3.json --per_device_train_batch_size $BS\ndone\necho\n';
  const [f] = facts(text);
  // The Trainer's default batch (8), not the 16 set before the loop.
  assert.deepEqual([f?.microBatch?.value, f?.microBatch?.isDefault, f?.branchDependent?.map((b) => [b.via, b.value, b.loop])], [8, true, [['--per_device_train_batch_size $BS', ['"$@"'], 'BS']]]);
  assert.equal(valueAtEnd(text, 'BS')?.value, undefined);
});

test('bash gives a name assigned from the loop name in the body each value in turn, and the last after done', async () => {
  const text = `for BS in 2 8; do
  export MBS=$BS
  LEN=$((8192 / MBS))
  NPROC_PER_NODE=8 swift sft --model Qwen/Qwen2.5-7B-Instruct --per_device_train_batch_size $MBS --max_length $LEN --deepspeed zero3
done
echo
`;
  const [f] = facts(text);
  // The batch-8 run needs the most memory for the batch, the batch-2 run (4096 tokens) for the length.
  assert.deepEqual([f?.microBatch?.value, f?.seqLen?.value], [8, 4096]);
  assert.deepEqual(f?.branchDependent?.map((b) => [b.via, b.value, b.loop, b.uses]), [
    ['--per_device_train_batch_size $MBS', ['2', '8'], 'BS', '8'],
    ['--max_length $LEN', ['4096', '1024'], 'BS', '4096'],
  ]);
  assert.deepEqual(['BS', 'MBS', 'LEN'].map((n) => valueAtEnd(text, n)?.value), ['8', '8', '1024']);
  const notes = (await analysisOf(text)).notes;
  assert.ok(notes.includes('--per_device_train_batch_size $MBS takes each value of the `for BS` loop (2, 8): the estimate uses 8, the run that needs the most memory.'), notes.join('\n'));
  // One value in every run is that value; a loop word the script cannot expand leaves the name unknown.
  assert.equal(facts('for BS in 2 3; do\n  GA=$((BS / 4))\n  swift sft --model m --gradient_accumulation_steps $GA\ndone\n')[0]?.gradientAccumulation?.value, 0);
  const unknown = facts('for BS in 2 $(cat bs.txt); do\n  MBS=$BS\n  swift sft --model m --per_device_train_batch_size $MBS\ndone\n')[0];
  assert.deepEqual([unknown?.microBatch?.isDefault, unknown?.branchDependent], [true, undefined]);
});

test('a fix never rewrites the name `read` or `for NAME` sets: its value comes from the run', () => {
  for (const text of ['while read -r BS; do\n  swift sft --model m --per_device_train_batch_size $BS\ndone < runs.txt\n', 'for BS; do\n  swift sft --model m --per_device_train_batch_size $BS\ndone\n']) {
    const script = parseShell(text);
    const start = text.indexOf('$BS');
    assert.deepEqual(valueEdit(text, start, start + 3, '4', environmentFor(script, script.commands[1])), { variable: 'BS' }, text);
  }
});

test('a fix never rewrites one of several values a name takes: a loop word, or one branch of an undecided if', () => {
  const editOf = (text: string) => {
    const script = parseShell(text);
    const start = text.indexOf('$BS');
    return valueEdit(text, start, start + 3, '4', environmentFor(script, script.commands.find((c) => c.words[0]?.value === 'swift')!));
  };
  assert.deepEqual(editOf('for BS in 2 8; do\n  swift sft --model m --per_device_train_batch_size $BS\ndone\n'), { variable: 'BS' });
  assert.deepEqual(editOf('if [ -f big ]; then BS=8; else BS=2; fi\nswift sft --model m --per_device_train_batch_size $BS\n'), { variable: 'BS' });
  // One word, or after `done` (the last word's value): that word is what the command gets, and it is edited.
  const edited = (text: string) => {
    const { op, variable } = editOf(text);
    return op?.op === 'replaceText' ? [variable, text.slice(0, op.start) + op.newText + text.slice(op.end)] : [variable];
  };
  assert.deepEqual(edited('for BS in 2; do\n  swift sft --per_device_train_batch_size $BS\ndone\n'), ['BS', 'for BS in 4; do\n  swift sft --per_device_train_batch_size $BS\ndone\n']);
  assert.deepEqual(edited('for BS in 2 8; do :; done\nswift sft --per_device_train_batch_size $BS\n'), ['BS', 'for BS in 2 4; do :; done\nswift sft --per_device_train_batch_size $BS\n']);
});

test('after `done` a name the body assigned itself keeps what the last run left, not the last word', () => {
  assert.equal(valueAtEnd('for BS in 1 2; do\n  BS=5\ndone\necho $BS\n', 'BS')?.value, '5');
  assert.equal(valueAtEnd('for BS in 2 8; do\n  BS=$((BS * 2))\ndone\necho $BS\n', 'BS')?.value, '16');
  // Assigned before the loop only: the loop's last word, as before.
  assert.equal(valueAtEnd('BS=5\nfor BS in 2 8; do\n  echo $BS\ndone\necho $BS\n', 'BS')?.value, '8');
});
