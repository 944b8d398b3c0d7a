import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractLaunchFacts } from '../../server/src/launch';
import { parseShell } from '../../server/src/launch/shell/parser';
import { environmentFor } from '../../server/src/launch/shell/variables';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts, scriptDocument } from './context-hosts';
import { doc, workspaceRoot } from './launch-helpers';

/** The value a name has for the script's last command. */
function valueAtEnd(text: string, name: string) {
  const script = parseShell(text);
  return environmentFor(script, script.commands[script.commands.length - 1]).wordBinding(name);
}

// https://github.com/QwenLM/Qwen/blob/0400505d060aea70437b55412aa02f8eae91ca5f/finetune/finetune_ds.sh (test/corpus), lines
// 11, 22-41, 52-53: MODEL is the default unless -m names another; without arguments no case branch sets it.
const qwen = readFileSync(join(__dirname, '../corpus/files/QwenLM__Qwen/finetune/finetune_ds.sh'), 'utf8');

test('Qwen finetune_ds.sh: a case branch that sets MODEL from $1 is not the value; the default is', () => {
  const [f] = extractLaunchFacts(doc('finetune/finetune_ds.sh', qwen), [workspaceRoot]);
  assert.equal(f?.model?.value, 'Qwen/Qwen-7B');
  assert.equal(f.branchDependent, undefined);
});

// DeepSpeedExamples applications/DeepSpeed-Chat/training/step1_supervised_finetuning/training_scripts/single_gpu/run_1.3b.sh
// (test/corpus): ZERO_STAGE=$2 and a default inside if [ "$ZERO_STAGE" == "" ].
test('DeepSpeed-Chat run_1.3b.sh: the if default is the value when the script runs without arguments', () => {
  const text = 'OUTPUT=$1\nZERO_STAGE=$2\nif [ "$OUTPUT" == "" ]; then\n    OUTPUT=./output\nfi\nif [ "$ZERO_STAGE" == "" ]; then\n    ZERO_STAGE=0\nfi\necho $ZERO_STAGE\n';
  assert.equal(valueAtEnd(text, 'ZERO_STAGE')?.value, '0');
  assert.equal(valueAtEnd(text, 'OUTPUT')?.value, './output');
});

test('a case on a value the script fixes takes that branch, not the last one written', () => {
  const text = `MODE=\${1:-lora}
case $MODE in
  lora) TRAIN_TYPE=lora; LR=1e-4 ;;
  full) TRAIN_TYPE=full; LR=1e-5 ;;
esac
NPROC_PER_NODE=4 swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type $TRAIN_TYPE --learning_rate $LR --deepspeed zero3
`;
  const [f] = extractLaunchFacts(doc('train.sh', text), [workspaceRoot]);
  assert.equal(f?.tuner?.value, 'lora');
  assert.equal(f.tuner?.isDefault, undefined, 'read from --train_type');
  assert.equal(f.tuner?.span.line, 6);
});

test('an elif chain on a fixed MODE takes its branch (DeepSpeedExamples AutoTP style: MODE=${1:-zero1tp})', () => {
  const text = `mbs=2
MODE=\${1:-zero1tp}
if [ "$MODE" == "zero1tp" ]; then
  ZERO_STAGE=1
  AUTOTP_SIZE=4
  per_device_train_batch_size=$((mbs * AUTOTP_SIZE))
elif [ "$MODE" == "zero3" ]; then
  ZERO_STAGE=3
  AUTOTP_SIZE=0
  per_device_train_batch_size=$mbs
fi
echo done
`;
  assert.deepEqual(['ZERO_STAGE', 'AUTOTP_SIZE', 'per_device_train_batch_size'].map((n) => valueAtEnd(text, n)?.value), ['1', '4', '8']);
});

test('every branch setting the same value gives it; branches a value the script cannot know picks say which values', async () => {
  const same = 'GPUS=$(nvidia-smi -L | wc -l)\nif [ "$GPUS" -gt 4 ]; then\n  BS=2\nelse\n  BS=2\nfi\necho $BS\n';
  assert.equal(valueAtEnd(same, 'BS')?.value, '2');
  const text = `GPUS=$(nvidia-smi -L | wc -l)
case $GPUS in
  8) BS=1 ;;
  *) BS=4 ;;
esac
NPROC_PER_NODE=4 swift sft --model Qwen/Qwen2.5-7B-Instruct --per_device_train_batch_size $BS --deepspeed ds_config.json
`;
  const binding = valueAtEnd(text, 'BS');
  assert.equal(binding?.value, undefined);
  assert.deepEqual(binding?.branches, ['1', '4']);
  const [f] = extractLaunchFacts(doc('train.sh', text), [workspaceRoot]);
  assert.deepEqual(f?.branchDependent?.map((b) => [b.via, b.value]), [['--per_device_train_batch_size $BS', ['1', '4']]]);
  // Either branch may run: the estimate takes the one that needs the most memory, and says it may be high.
  const ls = getLanguageService(memoryHosts({ 'ds_config.json': '{ "train_micro_batch_size_per_gpu": "auto", "zero_optimization": { "stage": 2 } }', 'train.sh': text }));
  const found = await ls.getDocumentAnalysis(scriptDocument('train.sh', text), { ...defaultSettings, gpusPerNode: 4 });
  assert.equal(found?.analysis.context.microBatchSize.value, 4);
  assert.ok(found?.analysis.notes.includes('--per_device_train_batch_size $BS depends on the branch the script takes (1, 4): the estimate uses 4, the branch that needs the most memory, so it may be high.'), found?.analysis.notes.join('\n'));
  // A value the estimate cannot order (a model) is still not read.
  const models = text.replace('BS=1', 'M=Qwen/Qwen2.5-7B').replace('BS=4', 'M=Qwen/Qwen2.5-72B').replace('--model Qwen/Qwen2.5-7B-Instruct', '--model $M');
  const byModel = await ls.getDocumentAnalysis(scriptDocument('train.sh', models), { ...defaultSettings, gpusPerNode: 4 });
  assert.ok(byModel?.analysis.notes.includes('--model $M depends on the branch the script takes (Qwen/Qwen2.5-7B, Qwen/Qwen2.5-72B), so it is not read.'), byModel?.analysis.notes.join('\n'));
  // A branch that may not run keeps the value before it: here the environment's.
  assert.deepEqual(valueAtEnd('if [ "$(hostname)" = gpu1 ]; then\n  export NPROC_PER_NODE=8\nfi\necho\n', 'NPROC_PER_NODE')?.branches, ['8', '$NPROC_PER_NODE']);
});

test('a command inside a branch sees that branch, not a sibling written before it', () => {
  const text = 'case $(hostname) in\n  a) MODEL=Qwen/Qwen2.5-7B-Instruct ;;\n  b) MODEL=Qwen/Qwen2.5-72B-Instruct\n     NPROC_PER_NODE=8 swift sft --model $MODEL --deepspeed zero3 ;;\nesac\n';
  const [f] = extractLaunchFacts(doc('train.sh', text), [workspaceRoot]);
  assert.equal(f?.model?.value, 'Qwen/Qwen2.5-72B-Instruct');
  const before = 'MODEL=m0\nif [ -f x ]; then\n  MODEL=m1\nelse\n  swift sft --model $MODEL --deepspeed zero3\nfi\n';
  assert.equal(extractLaunchFacts(doc('t.sh', before), [workspaceRoot])[0]?.model?.value, 'm0');
});

test('one-line forms, ;; on its own line and an if inside a case branch', () => {
  assert.equal(valueAtEnd('M=a\nif [ "$M" = a ]; then X=1; else X=2; fi\necho\n', 'X')?.value, '1');
  assert.equal(valueAtEnd('M=b\nif [[ $M == a* ]]; then X=1; elif [ "$M" != c ]; then X=2; else X=3; fi\necho\n', 'X')?.value, '2');
  const nested = 'S=7b\nBIG=\ncase "$S" in\n  7b|8b)\n    if [ -z "$BIG" ]; then\n      BS=4\n    fi\n    ;;\n  *)\n    BS=1\n    ;;\nesac\necho\n';
  assert.equal(valueAtEnd(nested, 'BS')?.value, '4');
  // A pattern that does not match and no *): the value before the case.
  assert.equal(valueAtEnd('BS=2\ncase x in\n  y) BS=8 ;;\nesac\necho\n', 'BS')?.value, '2');
  // Unbalanced keywords never throw, and the script still reads.
  for (const text of ['fi\nesac\nX=1\necho\n', 'case $1 in\n a) X=1 ;;\n', 'if true; then\n X=1\n']) assert.doesNotThrow(() => valueAtEnd(text, 'X'));
});

test('an argument list set in branches (TUNE_ARGS="--train_type lora …") expands from the branch the script decides', () => {
  const script = (use: string) => `USE_LORA=${use}
if [ "$USE_LORA" = "1" ]; then
  TUNE_ARGS="--train_type lora --lora_rank 16"
else
  TUNE_ARGS="--train_type full"
fi
NPROC_PER_NODE=4 swift sft --model Qwen/Qwen2.5-7B-Instruct $TUNE_ARGS --deepspeed zero3
`;
  const lora = extractLaunchFacts(doc('train.sh', script('1')), [workspaceRoot])[0];
  assert.deepEqual([lora?.tuner?.value, lora?.loraRank?.value], ['lora', 16]);
  const full = extractLaunchFacts(doc('train.sh', script('0')), [workspaceRoot])[0];
  assert.equal(full?.tuner?.value, 'full');
});

// https://github.com/OpenRLHF/OpenRLHF examples/scripts/train_sft.sh (test/corpus): the launch sits in
// if [[ ${1} != "slurm" ]]; its arguments come from a heredoc read before the if.
test('OpenRLHF train_sft.sh: the launch inside the if still reads its heredoc arguments', () => {
  const text = readFileSync(join(__dirname, '../corpus/files/OpenRLHF__OpenRLHF/examples/scripts/train_sft.sh'), 'utf8');
  const [f] = extractLaunchFacts(doc('examples/scripts/train_sft.sh', text), [workspaceRoot]);
  assert.deepEqual([f?.chain.join('>'), f?.deepspeed?.kind, f?.deepspeed?.kind === 'settings' && f.deepspeed.stage], ['deepspeed>python', 'settings', 2]);
});

// The long form of a default: bash, run without the name in the environment, takes the branch, as the reading
// of `${NPROC_PER_NODE:-8}` gives 8; a test of another kind on a name the script never sets still decides nothing.
test('if [ -z "$NAME" ]; then NAME=8; fi gives 8, as ${NAME:-8} does', () => {
  assert.equal(valueAtEnd('if [ -z "$NPROC_PER_NODE" ]; then\n  export NPROC_PER_NODE=8\nfi\necho\n', 'NPROC_PER_NODE')?.value, '8');
  assert.equal(valueAtEnd('if [[ -z ${BS} ]]; then\n  BS=4\nelse\n  BS=$BS\nfi\necho\n', 'BS')?.value, '4');
  assert.equal(valueAtEnd('if [ -n "$BS" ]; then\n  BS=2\nfi\necho\n', 'BS')?.value, undefined);
});

// bash runs the branch when either side of `||` succeeds, and only when both sides of `&&` do.
test('if A || B / A && B: the whole list decides, an undecidable side leaves it undecided unless the other decides it', () => {
  const value = (condition: string) => valueAtEnd(`M=a\nif ${condition}; then\n  X=1\nelse\n  X=2\nfi\necho\n`, 'X');
  assert.equal(value('[ "$M" = b ] || [ "$M" = a ]')?.value, '1');
  assert.equal(value('[ "$M" = b ] || [ "$M" = c ]')?.value, '2');
  assert.equal(value('[ "$M" = a ] || [ -f big ]')?.value, '1');
  assert.deepEqual(value('[ "$M" = b ] || [ -f big ]')?.branches, ['1', '2']);
  assert.deepEqual(value('[ "$M" = a ] && [ -f big ]')?.branches, ['1', '2']);
  assert.equal(value('[ "$M" = b ] && [ -f big ]')?.value, '2');
  assert.equal(value('[ -f big ] && [ "$M" = b ]')?.value, '2');
  assert.equal(value('[ "$M" = a ] && [ "$M" != b ]')?.value, '1');
  // `!` negates the command it starts: the parser drops it from the words.
  assert.equal(value('! [ "$M" = a ]')?.value, '2');
});

test('then if … / else if … on one line open a nested if', () => {
  const text = (m: string) => `M=${m}\nif [ "$M" = a ]; then if [ -f big ]; then X=8; fi\nelse if [ "$M" = b ]; then X=2; else X=3; fi\nfi\necho\n`;
  assert.deepEqual(valueAtEnd(text('a'), 'X')?.branches, ['8', '$X']);
  assert.equal(valueAtEnd(text('b'), 'X')?.value, '2');
  assert.equal(valueAtEnd(text('c'), 'X')?.value, '3');
});

test('[[ … ]] && X=1 and [ … ] || X=1 assign only when the test says so', () => {
  assert.deepEqual(valueAtEnd('X=2\n[[ -f big ]] && X=8\necho\n', 'X')?.branches, ['8', '2']);
  assert.deepEqual(valueAtEnd('X=2\n[ -f big ] || X=8\necho\n', 'X')?.branches, ['2', '8']);
  assert.equal(valueAtEnd('M=a\nX=2\n[ "$M" = a ] && X=8\necho\n', 'X')?.value, '8');
  assert.equal(valueAtEnd('M=a\nX=2\n[ "$M" = a ] || X=8\necho\n', 'X')?.value, '2');
  assert.equal(valueAtEnd('M=a\nX=2\n[ "$M" = b ] || export X=8\necho\n', 'X')?.value, '8');
  // The default idiom reads as `${NPROC:-8}` does; a command that is no test (cd) is not a condition read here.
  assert.equal(valueAtEnd('[ -z "$NPROC" ] && NPROC=8\necho\n', 'NPROC')?.value, '8');
  assert.equal(valueAtEnd('cd out && X=8\necho\n', 'X')?.value, '8');
  const [f] = extractLaunchFacts(doc('train.sh', 'BS=2\n[[ -f big ]] && BS=8\nswift sft --model m --per_device_train_batch_size $BS --deepspeed zero3\n'), [workspaceRoot]);
  assert.deepEqual([f?.microBatch?.value, f?.branchDependent?.map((b) => [b.via, b.value, b.uses])], [8, [['--per_device_train_batch_size $BS', ['8', '2'], '8']]]);
});

test('bash runs `|| Y=2` after `TEST && X=1` exactly when the test fails (an assignment never fails): an else branch', () => {
  const script = (mode: string) => `MODE=\${1:-${mode}}
[ "$MODE" = lora ] && export MBS=8 || MBS=2
[ "$MODE" = lora ] && TRAIN_TYPE=lora || LR=1e-5
NPROC_PER_NODE=8 swift sft --model Qwen/Qwen2.5-7B-Instruct --train_type \${TRAIN_TYPE:-full} --per_device_train_batch_size $MBS --deepspeed zero3
`;
  // Decided as bash decides the test: the script runs without arguments, so MODE is its default.
  const [lora] = extractLaunchFacts(doc('train.sh', script('lora')), [workspaceRoot]);
  assert.deepEqual([lora?.microBatch?.value, lora?.tuner?.value, valueAtEnd(script('lora'), 'LR')], [8, 'lora', undefined]);
  const [full] = extractLaunchFacts(doc('train.sh', script('full')), [workspaceRoot]);
  assert.deepEqual([full?.microBatch?.value, full?.tuner?.value, valueAtEnd(script('full'), 'LR')?.value], [2, 'full', '1e-5']);
  // Undecided: either value, as for if/else.
  const undecided = script('lora').replace(/"\$MODE" = lora/g, '-f big.flag');
  assert.deepEqual(['MBS', 'TRAIN_TYPE', 'LR'].map((n) => valueAtEnd(undecided, n)?.branches), [['8', '2'], ['lora', '$TRAIN_TYPE'], ['$LR', '1e-5']]);
  const [f] = extractLaunchFacts(doc('train.sh', undecided), [workspaceRoot]);
  assert.deepEqual([f?.microBatch?.value, f?.branchDependent?.map((b) => [b.via, b.value, b.uses])], [8, [['--train_type ${TRAIN_TYPE:-full}', ['lora', '$TRAIN_TYPE'], undefined], ['--per_device_train_batch_size $MBS', ['8', '2'], '8']]]);
  // `X=$(…)` has the status of the command it runs, so `|| X=2` runs when that command fails, which only running it
  // tells: either value. The same after any command (`nvidia-smi || X=2`).
  assert.deepEqual(valueAtEnd('M=a\n[ "$M" = a ] && X=$(cat bs.txt) || X=2\necho\n', 'X')?.branches, ['2', '$(cat bs.txt)']);
  assert.deepEqual(valueAtEnd('X=4\nnvidia-smi || X=2\necho\n', 'X')?.branches, ['2', '4']);
  assert.deepEqual(valueAtEnd('X=4\n[ -n "$Y" ] && echo hi || X=8\necho\n', 'X')?.branches, ['8', '4']);
});

test('what follows the `||` of an assignment never runs: an assignment cannot fail', () => {
  assert.equal(valueAtEnd('X=1 || X=2\necho\n', 'X')?.value, '1');
  // Nor the rest of that list, nor a command after `export`.
  assert.equal(valueAtEnd('X=1 || X=2 || X=3\necho\n', 'X')?.value, '1');
  assert.equal(valueAtEnd('export BS=4 || BS=16\necho\n', 'BS')?.value, '4');
  // Inside a branch the rule is the same: either what the branch sets or what came before, never 2.
  assert.deepEqual(valueAtEnd('X=0\nif [ -f big ]; then\n  X=1 || X=2\nfi\necho\n', 'X')?.branches, ['1', '0']);
  // After a command that may fail, `&& X=1 || X=2` runs X=2 when it fails.
  const either = valueAtEnd('X=0\nnvidia-smi && X=1 || X=2\necho\n', 'X');
  assert.ok(either?.value === '2' || either?.branches?.includes('2'), JSON.stringify(either));
  assert.equal(valueAtEnd('X=1 && Y=3 || X=2\necho\n', 'X')?.value, '1');
  // `&&` after an assignment always runs; an assignment from `$(…)` has that command's status.
  assert.equal(valueAtEnd('X=1 && X=2\necho\n', 'X')?.value, '2');
  assert.deepEqual(valueAtEnd('X=$(cat bs) || X=2\necho\n', 'X')?.branches, ['2', '$(cat bs)']);
  // What a launch reads from it: the batch size bash uses.
  const [facts] = extractLaunchFacts(doc('train.sh', 'BS=4 || BS=16\nswift sft --model Qwen/Qwen2.5-7B-Instruct --per_device_train_batch_size $BS --deepspeed zero3\n'), [workspaceRoot]);
  assert.deepEqual([facts?.microBatch?.value, facts?.branchDependent], [4, undefined]);
});
