import { URI } from 'vscode-uri';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { getLanguageService } from '../../server/src/languageService';
import { withOpenDocuments } from '../../server/src/host';
import { memoryHosts } from './context-hosts';
import { codes, doc, fixed, service, settings, workspaceRoot } from './launch-helpers';
import { extractLaunchFacts } from '../../server/src/launch';
import { factSource } from '../../server/src/training/context';
import { describeSource } from '../../server/src/protocol';

const ds = '{ "zero_optimization": { "stage": 2 } }';
const files = { 'configs/ds_config_zero2.json': ds };

async function check(text: string, name = 'scripts/train.sh', s = settings(), extra: Record<string, string> = {}) {
  const { ls } = service({ ...files, ...extra });
  const document = doc(name, text);
  return { document, diagnostics: await ls.doValidation(document, s) };
}

test('unknown preset: did-you-mean, including the 2.x names; the fix replaces only the value', async () => {
  for (const [written, meant] of [['zero_2', 'zero2'], ['default-zero2', 'zero2'], ['zero2-offload', 'zero2_offload'], ['zero3-offload', 'zero3_offload'], ['Zero3', 'zero3']]) {
    const { document, diagnostics } = await check(`swift sft --model m --deepspeed ${written}\n`);
    assert.deepEqual(codes(diagnostics), ['unknown-deepspeed-preset'], written);
    assert.match(String(diagnostics[0].message), new RegExp(`Did you mean '${meant}'`));
    assert.equal(diagnostics[0].codeDescription?.href.startsWith('https://'), true);
    assert.equal(diagnostics[0].source, 'zero-lens');
    assert.equal(fixed(document, diagnostics, 'unknown-deepspeed-preset'), `swift sft --model m --deepspeed ${meant}\n`);
  }
});

test('JSON path: resolved next to the script or in the workspace folder; missing → a warning naming both places, an error for an absolute path', async () => {
  assert.deepEqual(codes((await check('swift sft --deepspeed ../configs/ds_config_zero2.json\n')).diagnostics), []);
  assert.deepEqual(codes((await check('swift sft --deepspeed configs/ds_config_zero2.json\n')).diagnostics), [], 'cwd = workspace folder');
  const { diagnostics } = await check('swift sft --deepspeed ../configs/missing.json\n');
  assert.deepEqual(codes(diagnostics), ['deepspeed-config-not-found']);
  assert.match(String(diagnostics[0].message), /missing\.json/);
  // The script does not fix its working directory: both places a user runs it from are named, and it is a warning.
  assert.equal(diagnostics[0].severity, 2);
  assert.match(String(diagnostics[0].message), /is neither next to this file \(.*configs[\\/]missing\.json\) nor at the workspace root \(/);
  const absolute = await check('swift sft --deepspeed /path/to/deepspeed_zero2.json\n');
  assert.deepEqual(codes(absolute.diagnostics), ['deepspeed-config-not-found']);
  assert.equal(absolute.diagnostics[0].severity, 1);
  const wrongFolder = await check('swift sft --deepspeed ../config/ds_config_zero2.json\n');
  assert.match(String(wrongFolder.diagnostics[0].message), /Did you mean '\.\.\/configs\/ds_config_zero2\.json'\?/);
  assert.equal(fixed(wrongFolder.document, wrongFolder.diagnostics, 'deepspeed-config-not-found'), 'swift sft --deepspeed ../configs/ds_config_zero2.json\n');
  const typo = await check('python train.py --deepspeed ../configs/ds_config_zro2.json\n');
  assert.equal(fixed(typo.document, typo.diagnostics, 'deepspeed-config-not-found'), 'python train.py --deepspeed ../configs/ds_config_zero2.json\n');
  const variable = await check('DS=../configs/nope.json\nswift sft --deepspeed "$DS"\n');
  assert.deepEqual(codes(variable.diagnostics), ['deepspeed-config-not-found'], 'variables are resolved first');
  assert.deepEqual(codes((await check('swift sft --deepspeed "$FROM_ENV"\n')).diagnostics), [], 'unknown variables are not guessed at');
});

test('inline JSON that does not parse', async () => {
  assert.deepEqual(codes((await check(`swift sft --deepspeed '{"zero_optimization": {"stage": 2}}'\n`)).diagnostics), []);
  assert.deepEqual(codes((await check(`swift sft --deepspeed '{"zero_optimization": {'\n`)).diagnostics), ['invalid-inline-deepspeed-json']);
});

test('--deepspeed on a subcommand that does not take it: remove it (own line, last line)', async () => {
  const a = await check('swift infer \\\n    --model m \\\n    --deepspeed zero3 \\\n    --max_new_tokens 10\n');
  assert.deepEqual(codes(a.diagnostics), ['deepspeed-unsupported-subcommand']);
  assert.equal(fixed(a.document, a.diagnostics, 'deepspeed-unsupported-subcommand'), 'swift infer \\\n    --model m \\\n    --max_new_tokens 10\n');
  const b = await check('swift export \\\n    --model m \\\n    --deepspeed zero3\n');
  assert.equal(fixed(b.document, b.diagnostics, 'deepspeed-unsupported-subcommand'), 'swift export \\\n    --model m\n');
  const c = await check('megatron sft --model m --deepspeed zero2 --micro_batch_size 1\n');
  assert.equal(fixed(c.document, c.diagnostics, 'deepspeed-unsupported-subcommand'), 'megatron sft --model m --micro_batch_size 1\n');
});

test('--deepspeed with --fsdp', async () => {
  const { document, diagnostics } = await check('swift sft --model m --fsdp fsdp2 --deepspeed zero2\n');
  assert.deepEqual(codes(diagnostics), ['deepspeed-with-fsdp']);
  assert.equal(fixed(document, diagnostics, 'deepspeed-with-fsdp'), 'swift sft --model m --deepspeed zero2\n');
});

test('CUDA_VISIBLE_DEVICES with ≥2 GPUs and no NPROC_PER_NODE: add it on its own line', async () => {
  const { document, diagnostics } = await check('CUDA_VISIBLE_DEVICES=0,1,2 \\\nswift sft \\\n    --deepspeed zero2\n');
  assert.deepEqual(codes(diagnostics), ['cuda-devices-without-nproc']);
  assert.equal(fixed(document, diagnostics, 'cuda-devices-without-nproc'), 'CUDA_VISIBLE_DEVICES=0,1,2 \\\nNPROC_PER_NODE=3 \\\nswift sft \\\n    --deepspeed zero2\n');
  const inline = await check('CUDA_VISIBLE_DEVICES=0,1 swift sft --deepspeed zero2\n');
  assert.equal(fixed(inline.document, inline.diagnostics, 'cuda-devices-without-nproc'), 'CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2 swift sft --deepspeed zero2\n');
  const exported = await check('export CUDA_VISIBLE_DEVICES=0,1\nswift sft --deepspeed zero2\n');
  assert.deepEqual(codes(exported.diagnostics), ['cuda-devices-without-nproc'], 'an exported variable counts');
  assert.deepEqual(codes((await check('CUDA_VISIBLE_DEVICES=0 swift sft --deepspeed zero2\n')).diagnostics), []);
  assert.deepEqual(codes((await check('CUDA_VISIBLE_DEVICES=0,1 swift infer --model m\n')).diagnostics), [], 'infer with device_map is fine');
  assert.deepEqual(codes((await check('NPROC_PER_NODE=2\nCUDA_VISIBLE_DEVICES=0,1 swift sft --deepspeed zero2\n')).diagnostics), ['cuda-devices-without-nproc'], 'a plain (unexported) assignment does not reach swift');
});

test('processes per node that do not match the visible GPUs: the ms-swift start-up errors, and the fix', async () => {
  const fewer = await check('CUDA_VISIBLE_DEVICES=0,1,2,3 NPROC_PER_NODE=2 swift sft --model m --deepspeed zero2\n');
  assert.deepEqual(codes(fewer.diagnostics), ['nproc-visible-devices-mismatch']);
  assert.match(String(fewer.diagnostics[0].message), /each process sees 2 GPUs.*not compatible with device_map/);
  assert.equal(fixed(fewer.document, fewer.diagnostics, 'nproc-visible-devices-mismatch'), 'CUDA_VISIBLE_DEVICES=0,1,2,3 NPROC_PER_NODE=4 swift sft --model m --deepspeed zero2\n');
  const more = await check('CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=4 swift sft --model m --deepspeed zero2\n');
  assert.match(String(more.diagnostics.find((d) => d.code === 'nproc-visible-devices-mismatch')?.message), /divide evenly/);
  assert.deepEqual(codes((await check('CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2 swift sft --model m --deepspeed zero2\n')).diagnostics), []);
  // Without --deepspeed, device_map model parallel is a legitimate choice.
  assert.deepEqual(codes((await check('CUDA_VISIBLE_DEVICES=0,1,2,3 NPROC_PER_NODE=2 swift sft --model m\n')).diagnostics), []);
  // SWIFT_SINGLE_DEVICE_MODE=1 turns ms-swift's model-parallel detection off.
  assert.deepEqual(codes((await check('SWIFT_SINGLE_DEVICE_MODE=1 CUDA_VISIBLE_DEVICES=0,1 swift sft --model m --deepspeed zero2\n')).diagnostics), []);
  assert.deepEqual(codes((await check('SWIFT_SINGLE_DEVICE_MODE=1 CUDA_VISIBLE_DEVICES=0,1,2,3 NPROC_PER_NODE=2 swift sft --model m --deepspeed zero2\n')).diagnostics), []);
});

test('python swift/cli/main.py sft is the swift command itself: its subcommand is read, NPROC_PER_NODE counts', async () => {
  // Before: read as a subcommand called "main", so --deepspeed was a false deepspeed-unsupported-subcommand.
  for (const command of ['python swift/cli/main.py sft', 'python -m swift.cli.main sft', 'python3 swift/cli/main.py rlhf --rlhf_type dpo']) {
    assert.deepEqual(codes((await check(`NPROC_PER_NODE=2 CUDA_VISIBLE_DEVICES=0,1 ${command} --model m --deepspeed zero3\n`)).diagnostics), [], command);
    // As for swift sft: several GPUs without NPROC_PER_NODE is one process with device_map (main.py:30-36, 95-98).
    assert.deepEqual(codes((await check(`CUDA_VISIBLE_DEVICES=0,1 ${command} --model m --deepspeed zero3\n`)).diagnostics), ['cuda-devices-without-nproc'], command);
  }
  assert.deepEqual(codes((await check('python swift/cli/main.py export --deepspeed zero3\n')).diagnostics), ['deepspeed-unsupported-subcommand']);
  const [facts] = extractLaunchFacts(doc('scripts/main.sh', 'NPROC_PER_NODE=4 python swift/cli/main.py sft --model m --deepspeed zero2\n'), [workspaceRoot]);
  assert.deepEqual([facts.subcommand, facts.gpusPerNode?.value, facts.deepspeed?.kind], ['sft', 4, 'preset']);
});

test('python swift/cli/sft.py runs one process: with two or more GPUs visible --deepspeed fails, whatever NPROC_PER_NODE says', async () => {
  // Before: "Set NPROC_PER_NODE=2" (which only the swift command reads), and nothing once it was set.
  const a = await check('CUDA_VISIBLE_DEVICES=0,1 python swift/cli/sft.py --model m --deepspeed zero3\n');
  assert.deepEqual(codes(a.diagnostics), ['swift-script-single-process']);
  assert.equal(a.diagnostics[0].severity, 1);
  assert.deepEqual(a.diagnostics[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 24 } });
  assert.match(String(a.diagnostics[0].message), /^CUDA_VISIBLE_DEVICES lists 2 GPUs, and python swift\/cli\/sft\.py runs one process .*"DeepSpeed is not compatible with device_map"\. Use swift sft with NPROC_PER_NODE=2, or start swift\/cli\/sft\.py with torchrun --nproc_per_node 2\.$/);
  // The fix runs what swift's main.py would: torchrun on the same script (python's own flags go).
  assert.equal(fixed(a.document, a.diagnostics, 'swift-script-single-process'), 'CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 swift/cli/sft.py --model m --deepspeed zero3\n');
  const ignored = await check('CUDA_VISIBLE_DEVICES=0,1,2,3 \\\nNPROC_PER_NODE=4 \\\nnohup python -u swift/cli/sft.py \\\n    --deepspeed zero2\n');
  assert.deepEqual(codes(ignored.diagnostics), ['swift-script-single-process'], 'NPROC_PER_NODE does not help, and is not said to be missing');
  assert.equal(fixed(ignored.document, ignored.diagnostics, 'swift-script-single-process'), 'CUDA_VISIBLE_DEVICES=0,1,2,3 \\\nNPROC_PER_NODE=4 \\\nnohup torchrun --nproc_per_node 4 swift/cli/sft.py \\\n    --deepspeed zero2\n');
  const module = await check('CUDA_VISIBLE_DEVICES=0,1 python -m swift.cli.sft --deepspeed zero3\n');
  assert.deepEqual(codes(module.diagnostics), ['swift-script-single-process']);
  assert.equal(fixed(module.document, module.diagnostics, 'swift-script-single-process'), 'CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 -m swift.cli.sft --deepspeed zero3\n');
  const joined = await check('CUDA_VISIBLE_DEVICES=0,1 python -mswift.cli.sft --deepspeed zero3\n');
  assert.deepEqual((joined.diagnostics[0].data as { fixes: unknown[] }).fixes, [], '-mswift.cli.sft in one word: no fix');
  // No CUDA_VISIBLE_DEVICES: NPROC_PER_NODE ≥ 2 says the machine has that many GPUs, all of which the one process sees.
  const stated = await check('NPROC_PER_NODE=8 python swift/cli/sft.py --deepspeed zero3\n');
  assert.deepEqual(codes(stated.diagnostics), ['swift-script-single-process']);
  assert.deepEqual(stated.diagnostics[0].range.end, { line: 0, character: 16 });
  assert.match(String(stated.diagnostics[0].message), /^NPROC_PER_NODE=8 asks for 8 processes, but python swift\/cli\/sft\.py runs one process, which sees every GPU of the machine \(8 or more\)/);
  // Otherwise the count is unknown and, as for swift sft, nothing is said; one GPU, no --deepspeed, single device mode and an outer launcher are fine.
  for (const fine of [
    'python swift/cli/sft.py --deepspeed zero3\n',
    'NPROC_PER_NODE=1 python swift/cli/sft.py --deepspeed zero3\n',
    'CUDA_VISIBLE_DEVICES=0 NPROC_PER_NODE=2 python swift/cli/sft.py --deepspeed zero3\n',
    'CUDA_VISIBLE_DEVICES=0,1 python swift/cli/sft.py --model m\n',
    'SWIFT_SINGLE_DEVICE_MODE=1 CUDA_VISIBLE_DEVICES=0,1 python swift/cli/sft.py --deepspeed zero3\n',
    'CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 swift/cli/sft.py --deepspeed zero3\n',
  ]) {
    assert.deepEqual(codes((await check(fine)).diagnostics), [], fine);
  }
});

test('python swift/cli/sft.py is one GPU in the launch facts; a config file argument is a stray positional there', async () => {
  // Before: no GPU count, so the estimate fell back to zeroLens.gpusPerNode.
  const one = (text: string) => extractLaunchFacts(doc('scripts/one.sh', text), [workspaceRoot])[0];
  const facts = one('NPROC_PER_NODE=4 python -u swift/cli/sft.py --model m --deepspeed zero2\n');
  assert.deepEqual([facts.gpusPerNode?.value, facts.gpusPerNode?.isDefault, describeSource(factSource(facts, facts.gpusPerNode!))], [1, true, 'python swift/cli/sft.py runs one process (one.sh)']);
  assert.equal(one('python3 -m swift.cli.sft --deepspeed zero2\n').gpusPerNode?.via, 'python3 -m swift.cli.sft runs one process');
  assert.equal(one('torchrun --nproc_per_node 2 swift/cli/sft.py --deepspeed zero2\n').gpusPerNode?.value, 2, 'a launcher decides');
  assert.equal(one('NPROC_PER_NODE=2 python swift/cli/main.py sft --deepspeed zero2\n').gpusPerNode?.value, 2, 'main.py is the swift command');

  // Only swift/cli/main.py turns a config file into flags (parse_yaml_args); sft.py's parser leaves it over.
  const yaml = { 'scripts/sft.yaml': 'model: m\nENV:\n  NPROC_PER_NODE: 2\n' };
  const stray = await check('python swift/cli/sft.py sft.yaml\n', 'scripts/train.sh', settings(), yaml);
  assert.deepEqual(codes(stray.diagnostics), ['swift-script-config-file']);
  assert.equal(stray.diagnostics[0].severity, 1);
  assert.match(String(stray.diagnostics[0].message), /^swift\/cli\/sft\.py does not read a config file: .* ValueError: remaining_argv: \['sft\.yaml'\] \(swift\/pipelines\/base\.py:35-40\)\. Use swift sft sft\.yaml\.$/);
  assert.equal(fixed(stray.document, stray.diagnostics, 'swift-script-config-file'), 'swift sft sft.yaml\n');
  assert.equal(one('python swift/cli/sft.py sft.yaml\n').configFile, undefined, 'the file is not read: its ENV: does not count');
  const ignored = await check('python -m swift.cli.rlhf rlhf.json --ignore_args_error true\n', 'scripts/train.sh', settings(), yaml);
  assert.deepEqual(ignored.diagnostics.map((d) => [d.code, d.severity]), [['swift-script-config-file', 2]]);
  assert.equal(fixed(ignored.document, ignored.diagnostics, 'swift-script-config-file'), 'swift rlhf rlhf.json --ignore_args_error true\n');
  const launched = await check('torchrun --nproc_per_node 2 swift/cli/sft.py sft.yaml\n', 'scripts/train.sh', settings(), yaml);
  assert.deepEqual(codes(launched.diagnostics), ['swift-script-config-file']);
  assert.deepEqual((launched.diagnostics[0].data as { fixes: unknown[] }).fixes, [], 'no fix under a launcher');
  assert.deepEqual(codes((await check('swift sft sft.yaml\n', 'scripts/train.sh', settings(), yaml)).diagnostics), []);
});

test('environment assignment after the command: moved before it (#3681)', async () => {
  const a = await check('CUDA_VISIBLE_DEVICES=0,1 \\\nswift sft \\\n    NPROC_PER_NODE=2 \\\n    --deepspeed zero2\n');
  assert.deepEqual(codes(a.diagnostics), ['env-after-command'], 'no second report about NPROC_PER_NODE missing');
  assert.equal(fixed(a.document, a.diagnostics, 'env-after-command'), 'CUDA_VISIBLE_DEVICES=0,1 \\\nNPROC_PER_NODE=2 \\\nswift sft \\\n    --deepspeed zero2\n');
  const b = await check('swift sft \\\n    --deepspeed zero2 \\\n    NPROC_PER_NODE=2\n');
  assert.equal(fixed(b.document, b.diagnostics, 'env-after-command'), 'NPROC_PER_NODE=2 \\\nswift sft \\\n    --deepspeed zero2\n');
  const c = await check('swift sft --deepspeed zero2 NPROC_PER_NODE=2\n');
  assert.equal(fixed(c.document, c.diagnostics, 'env-after-command'), 'NPROC_PER_NODE=2 swift sft --deepspeed zero2\n');
});

test('a continuation broken by a blank line (#5328): remove the blank line', async () => {
  const { document, diagnostics } = await check('CUDA_VISIBLE_DEVICES=0,1 \\\n\nNPROC_PER_NODE=2 \\\nswift sft \\\n    --deepspeed zero2\n');
  assert.deepEqual(codes(diagnostics), ['broken-continuation']);
  assert.equal(fixed(document, diagnostics, 'broken-continuation'), 'CUDA_VISIBLE_DEVICES=0,1 \\\nNPROC_PER_NODE=2 \\\nswift sft \\\n    --deepspeed zero2\n');
  const tail = await check('swift sft --deepspeed zero2 \\\n\necho done\n');
  assert.deepEqual(tail.diagnostics, [], 'a dangling backslash before a blank line that ends the command anyway is harmless');
});

test('a comment line inside a continuation: moved above the command, nothing lost', async () => {
  const { document, diagnostics } = await check('swift sft \\\n    # --lora_rank 8 \\\n    --deepspeed zero2\n');
  assert.deepEqual(codes(diagnostics), ['broken-continuation']);
  assert.equal(fixed(document, diagnostics, 'broken-continuation'), '# --lora_rank 8 \\\nswift sft \\\n    --deepspeed zero2\n');
});

test('trailing spaces after the backslash: removed', async () => {
  const { document, diagnostics } = await check('swift sft \\   \n    --deepspeed zero2\n');
  assert.deepEqual(codes(diagnostics), ['trailing-space-after-backslash']);
  assert.equal(fixed(document, diagnostics, 'trailing-space-after-backslash'), 'swift sft \\\n    --deepspeed zero2\n');
});

test('Windows line endings: one warning on the first CRLF line; every other check reads the script as if its lines ended in LF', async () => {
  const lf = 'CUDA_VISIBLE_DEVICES=0,1 \\\nNPROC_PER_NODE=2 \\\nswift sft \\\n    --deepspeed zero_2\n';
  const crlf = lf.replace(/\n/g, '\r\n');
  const { document, diagnostics } = await check(crlf);
  assert.deepEqual(codes(diagnostics), ['crlf-line-endings', ...codes((await check(lf)).diagnostics)]);
  const [warning] = diagnostics;
  assert.deepEqual(warning.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 'CUDA_VISIBLE_DEVICES=0,1 \\'.length } });
  assert.equal(document.getText().slice(document.offsetAt(warning.range.end), document.offsetAt(warning.range.end) + 2), '\r\n');
  assert.match(String(warning.message), /^Windows line endings \(CRLF\) on 4 lines: .*command not found/);
  assert.equal(warning.codeDescription?.href, 'https://www.shellcheck.net/wiki/SC1017');
  assert.deepEqual(warning.data, { lines: 4, version: document.version, textLength: crlf.length, fixes: [] });

  const mixed = (await check('echo start\nswift sft \\\r\n    --deepspeed zero2\n')).diagnostics;
  assert.deepEqual(codes(mixed), ['crlf-line-endings']);
  assert.equal(mixed[0].range.start.line, 1, 'the first line that ends in CRLF');
  assert.match(String(mixed[0].message), /on 1 line:/);
  assert.deepEqual((await check('swift sft --deepspeed zero2\n')).diagnostics, [], 'LF: nothing');
  assert.deepEqual((await check('echo "a\rb"\n')).diagnostics, [], 'a lone carriage return is not a line ending');
});

test('a quote or here-document left open is said first, where it opens (its consequences alone were misleading)', async () => {
  // Before: only "DeepSpeed config 'configs/ds_config_zero2.json --bf16' not found (looked …)".
  const quote = await check('deepspeed train.py --deepspeed "configs/ds_config_zero2.json --bf16\n');
  assert.equal(quote.diagnostics[0].code, 'unterminated-quote');
  assert.deepEqual(quote.diagnostics[0].range.start, { line: 0, character: 31 });
  assert.match(String(quote.diagnostics[0].message), /^This double quote is never closed: .*"unexpected EOF"/);
  const ansi = await check("deepspeed train.py --deepspeed $'configs/ds_config_zero2.json\n");
  assert.deepEqual(ansi.diagnostics.map((d) => [d.code, d.range.start.character]), [['unterminated-quote', 32]]);
  const heredoc = await check('cat <<EOT > notes.txt\nhello\ndeepspeed train.py --deepspeed configs/ds_config_zero2.json\n');
  assert.deepEqual(codes(heredoc.diagnostics), ['unterminated-heredoc']);
  assert.match(String(heredoc.diagnostics[0].message), /here-document 'EOT' is never closed/);
  // Apostrophes in comments, quoted strings and closed heredocs are fine.
  for (const fine of ["deepspeed train.py --deepspeed configs/ds_config_zero2.json # it's\n", `echo "it's"\ndeepspeed train.py --deepspeed configs/ds_config_zero2.json\n`, "cat <<'EOF'\n$x\nEOF\ndeepspeed train.py --deepspeed configs/ds_config_zero2.json\n"]) {
    assert.deepEqual(codes((await check(fine)).diagnostics), [], fine);
  }
});

test('--train_type → --tuner_type, keeping the dash style', async () => {
  const a = await check('swift sft --train_type lora --deepspeed zero2\n');
  assert.deepEqual(codes(a.diagnostics), ['train-type-renamed']);
  assert.equal(fixed(a.document, a.diagnostics, 'train-type-renamed'), 'swift sft --tuner_type lora --deepspeed zero2\n');
  const b = await check('swift sft --train-type=full\n');
  assert.equal(fixed(b.document, b.diagnostics, 'train-type-renamed'), 'swift sft --tuner-type=full\n');
});

test('--torch_dtype bf16/fp16 → bfloat16/float16', async () => {
  const a = await check('swift sft --torch_dtype bf16\n');
  assert.deepEqual(codes(a.diagnostics), ['invalid-torch-dtype']);
  assert.equal(fixed(a.document, a.diagnostics, 'invalid-torch-dtype'), 'swift sft --torch_dtype bfloat16\n');
  const b = await check('swift sft --torch_dtype=fp16\n');
  assert.equal(fixed(b.document, b.diagnostics, 'invalid-torch-dtype'), 'swift sft --torch_dtype=float16\n');
  assert.deepEqual(codes((await check('swift sft --torch_dtype float32\n')).diagnostics), []);
});

test('--quant_bits without --quant_method: add --quant_method bnb', async () => {
  const { document, diagnostics } = await check('swift sft \\\n    --quant_bits 4 \\\n    --tuner_type lora\n');
  assert.deepEqual(codes(diagnostics), ['quant-bits-without-method']);
  assert.equal(fixed(document, diagnostics, 'quant-bits-without-method'), 'swift sft \\\n    --quant_bits 4 --quant_method bnb \\\n    --tuner_type lora\n');
  assert.deepEqual(codes((await check('swift sft --quant_method bnb --quant_bits 4\n')).diagnostics), []);
});

test('estimate over zeroLens.gpuMemoryGiB: warning with switches that fit', async () => {
  const text = 'NPROC_PER_NODE=4 \\\nCUDA_VISIBLE_DEVICES=0,1,2,3 \\\nswift sft \\\n    --model Qwen/Qwen3-8B \\\n    --tuner_type full \\\n    --deepspeed zero2\n';
  const { document, diagnostics } = await check(text, 'scripts/train.sh', settings({ gpuMemoryGiB: 40 }));
  assert.deepEqual(codes(diagnostics), ['estimate-exceeds-gpu-memory']);
  assert.match(String(diagnostics[0].message), /Qwen3-8B/);
  const titles = ((diagnostics[0].data as { fixes: { title: string }[] }).fixes).map((f) => f.title);
  assert.ok(titles.some((t) => /^Switch to zero3_offload \(≈ \d+\.\d GiB\/GPU\)$/.test(t)), titles.join());
  assert.equal(fixed(document, diagnostics, 'estimate-exceeds-gpu-memory', titles.find((t) => t.startsWith('Switch to zero3_offload'))), text.replace('zero2', 'zero3_offload'));
  assert.deepEqual(codes((await check(text, 'scripts/train.sh', settings({ gpuMemoryGiB: 80 }))).diagnostics), []);
  assert.deepEqual(codes((await check(text)).diagnostics), [], 'no GPU size set: no fit check');
});

test('deepspeed launcher: num_gpus/num_nodes with include, include with exclude, multi-node without hostfile, CUDA ignored', async () => {
  const a = await check('deepspeed --num_gpus 2 --include localhost:0,1 train.py --deepspeed ../configs/ds_config_zero2.json\n');
  assert.deepEqual(codes(a.diagnostics), ['launcher-num-with-include']);
  assert.equal(fixed(a.document, a.diagnostics, 'launcher-num-with-include'), 'deepspeed --include localhost:0,1 train.py --deepspeed ../configs/ds_config_zero2.json\n');
  const b = await check('deepspeed --include localhost:0 --exclude localhost:1 train.py\n');
  assert.deepEqual(codes(b.diagnostics), ['launcher-include-with-exclude']);
  assert.equal(fixed(b.document, b.diagnostics, 'launcher-include-with-exclude'), 'deepspeed --include localhost:0 train.py\n');
  assert.deepEqual(codes((await check('deepspeed --num_nodes 2 --num_gpus 8 train.py\n')).diagnostics), ['launcher-multinode-without-hostfile']);
  assert.deepEqual(codes((await check('deepspeed --hostfile hosts --num_nodes 2 train.py\n')).diagnostics), []);
  const c = await check('CUDA_VISIBLE_DEVICES=2,3 deepspeed --num_gpus 2 train.py\n');
  assert.deepEqual(codes(c.diagnostics), ['cuda-visible-devices-ignored']);
  assert.equal(fixed(c.document, c.diagnostics, 'cuda-visible-devices-ignored'), 'deepspeed --num_gpus 2 train.py\n');
  assert.deepEqual(codes((await check('CUDA_VISIBLE_DEVICES=2,3 deepspeed train.py\n')).diagnostics), [], 'honoured without include/num_gpus');
  // --num_nodes 1 does not make the launcher ignore the variable: it becomes --include, and --num_nodes is refused.
  const d = await check('CUDA_VISIBLE_DEVICES=0,1 deepspeed --num_nodes 1 train.py\n');
  assert.deepEqual(codes(d.diagnostics), ['launcher-num-with-include']);
  assert.equal(fixed(d.document, d.diagnostics, 'launcher-num-with-include'), 'CUDA_VISIBLE_DEVICES=0,1 deepspeed train.py\n');
  assert.deepEqual(codes((await check('deepspeed --include "worker-0:0,1@worker-1:2,3" train.py\n')).diagnostics), []);
  assert.deepEqual(codes((await check('deepspeed --include worker-0:a train.py\n')).diagnostics), ['launcher-invalid-host-spec']);
});

test('HF --deepspeed: a preset name is not valid there; a missing file is reported', async () => {
  const a = await check('torchrun --nproc_per_node 2 train.py --deepspeed zero3\n');
  assert.deepEqual(codes(a.diagnostics), ['preset-not-valid-here']);
  assert.match(String(a.diagnostics[0].message), /ms-swift preset/);
  assert.deepEqual(codes((await check('python train.py --deepspeed ds_config.json\n')).diagnostics), ['deepspeed-config-not-found']);
  assert.deepEqual(codes((await check('python train.py --deepspeed ../configs/ds_config_zero2.json\n')).diagnostics), []);
  assert.deepEqual(codes((await check('deepspeed train.py --deepspeed --deepspeed_config ../configs/nope.json\n')).diagnostics), ['deepspeed-config-not-found'], 'boolean --deepspeed + --deepspeed_config');
});

test('python train.py --deepspeed with several GPUs visible: one process, so MPI discovery or one GPU (warning, torchrun fix)', async () => {
  const cfg = '../configs/ds_config_zero2.json';
  // Before: nothing was said; the facts already counted one GPU.
  const a = await check(`CUDA_VISIBLE_DEVICES=0,1,2,3 python -u train.py --model_name_or_path m --deepspeed ${cfg}\n`);
  assert.deepEqual(codes(a.diagnostics), ['hf-script-single-process']);
  assert.equal(a.diagnostics[0].severity, 2);
  assert.deepEqual(a.diagnostics[0].range, { start: { line: 0, character: 29 }, end: { line: 0, character: 35 } }, 'at the python word');
  assert.match(String(a.diagnostics[0].message), /^CUDA_VISIBLE_DEVICES lists 4 GPUs, but python -u train\.py runs one process: no launcher sets RANK and WORLD_SIZE, so with --deepspeed DeepSpeed looks for an MPI world through mpi4py .* either stops there or trains with world size 1 on one GPU while the others sit idle\. Start train\.py with torchrun --nproc_per_node 4/);
  assert.equal(fixed(a.document, a.diagnostics, 'hf-script-single-process'), `CUDA_VISIBLE_DEVICES=0,1,2,3 torchrun --nproc_per_node 4 train.py --model_name_or_path m --deepspeed ${cfg}\n`);
  const module = await check(`export CUDA_VISIBLE_DEVICES=0,1\npython -m pkg.train --deepspeed ${cfg}\n`);
  assert.deepEqual(codes(module.diagnostics), ['hf-script-single-process']);
  assert.equal(fixed(module.document, module.diagnostics, 'hf-script-single-process'), `export CUDA_VISIBLE_DEVICES=0,1\ntorchrun --nproc_per_node 2 -m pkg.train --deepspeed ${cfg}\n`);
  const joined = await check(`CUDA_VISIBLE_DEVICES=0,1 python -mpkg.train --deepspeed ${cfg}\n`);
  assert.deepEqual((joined.diagnostics[0].data as { fixes: unknown[] }).fixes, [], '-mpkg.train in one word: no fix');
  // NPROC_PER_NODE (read by launchers only) states the GPUs meant.
  const stated = await check(`NPROC_PER_NODE=8 python train.py --deepspeed ${cfg}\n`);
  assert.deepEqual(codes(stated.diagnostics), ['hf-script-single-process']);
  assert.match(String(stated.diagnostics[0].message), /^NPROC_PER_NODE=8 asks for 8 processes, but python train\.py runs one process \(only a launcher reads NPROC_PER_NODE\)/);
  // The count unknown, one GPU, no DeepSpeed, or a launcher: silent.
  for (const fine of [
    `python train.py --deepspeed ${cfg}\n`,
    `CUDA_VISIBLE_DEVICES=0 python train.py --deepspeed ${cfg}\n`,
    `CUDA_VISIBLE_DEVICES=0,1 NPROC_PER_NODE=2 python train.py --model_name_or_path m\n`,
    `CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 train.py --deepspeed ${cfg}\n`,
    `CUDA_VISIBLE_DEVICES=0,1 python -m torch.distributed.run --nproc_per_node 2 train.py --deepspeed ${cfg}\n`,
    `CUDA_VISIBLE_DEVICES=0,1 deepspeed train.py --deepspeed ${cfg}\n`,
  ]) {
    assert.deepEqual(codes((await check(fine)).diagnostics), [], fine);
  }
});

test('torchrun: invalid --nproc_per_node / --nnodes, more processes than visible GPUs', async () => {
  assert.deepEqual(codes((await check('torchrun --nproc_per_node=eight t.py\n')).diagnostics), ['torchrun-invalid-value']);
  assert.deepEqual(codes((await check('torchrun --nnodes 1-2 t.py\n')).diagnostics), ['torchrun-invalid-value']);
  assert.deepEqual(codes((await check('torchrun --nproc-per-node gpu --nnodes 1:4 t.py\n')).diagnostics), []);
  assert.deepEqual(codes((await check('CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 4 t.py\n')).diagnostics), ['nproc-exceeds-visible-devices']);
});

test('accelerate launch: value checks, DeepSpeed flags beside deepspeed_config_file only fill "auto", file must exist', async () => {
  const a = await check('accelerate launch --use_deepspeed --zero_stage 4 --offload_param_device gpu --zero3_init_flag maybe --mixed_precision bf32 --num_processes x t.py\n');
  assert.deepEqual(codes(a.diagnostics), ['accelerate-invalid-value', 'accelerate-invalid-value', 'accelerate-invalid-value', 'accelerate-invalid-value', 'accelerate-invalid-value']);
  const b = await check('accelerate launch --use_deepspeed --deepspeed_config_file ../configs/ds_config_zero2.json --zero_stage 3 t.py\n');
  // accelerate lower-cases the offload devices and reads zero3_init_flag with str_to_bool.
  assert.deepEqual(codes((await check('accelerate launch --use_deepspeed --zero_stage 3 --offload_optimizer_device CPU --zero3_init_flag True --zero3_save_16bit_model TRUE t.py\n')).diagnostics), []);
  assert.deepEqual(codes((await check('accelerate launch --use_deepspeed --zero_stage 3 --zero3_init_flag yes t.py\n')).diagnostics), []);
  // accelerate refuses these only from its YAML; on the command line they fill "auto" (must_match=False).
  assert.deepEqual(codes(b.diagnostics), ['accelerate-flag-fills-auto']);
  assert.equal(b.diagnostics[0].severity, 3);
  assert.equal(fixed(b.document, b.diagnostics, 'accelerate-flag-fills-auto'), 'accelerate launch --use_deepspeed --deepspeed_config_file ../configs/ds_config_zero2.json t.py\n');
  assert.deepEqual(codes((await check('accelerate launch --deepspeed_config_file nope.json t.py\n')).diagnostics), ['deepspeed-config-not-found']);
  assert.deepEqual(codes((await check('accelerate launch --deepspeed_config_file zero2 t.py\n')).diagnostics), ['preset-not-valid-here'], 'presets are ms-swift only');
});

test('clean real shapes give no diagnostics', async () => {
  const { diagnostics } = await check('nproc_per_node=2\nCUDA_VISIBLE_DEVICES=0,1 \\\nNPROC_PER_NODE=$nproc_per_node \\\nswift sft \\\n    --model Qwen/Qwen2.5-7B-Instruct \\\n    --gradient_accumulation_steps $(expr 16 / $nproc_per_node) \\\n    --deepspeed zero2\n');
  assert.deepEqual(diagnostics, []);
});

test('a gap of blank and comment lines keeps the comments (moved above the command)', async () => {
  const { document, diagnostics } = await check('swift sft \\\n\n    # note\n    --deepspeed zero2\n');
  assert.deepEqual(codes(diagnostics), ['broken-continuation']);
  assert.equal(fixed(document, diagnostics, 'broken-continuation'), '# note\nswift sft \\\n    --deepspeed zero2\n');
});

test('the memory warning follows the config as the editor holds it, unsaved, and goes back when it is closed', async () => {
  const hosts = memoryHosts(files);
  const configPath = path.join(workspaceRoot, 'configs/ds_config_zero2.json');
  const open = new Map<string, string>();
  const ls = getLanguageService({ ...hosts, fs: withOpenDocuments(hosts.fs, (file) => open.get(path.normalize(file))) });
  const document = doc('scripts/train.sh', 'NPROC_PER_NODE=4 \\\nswift sft \\\n    --model Qwen/Qwen3-8B \\\n    --tuner_type full \\\n    --deepspeed ../configs/ds_config_zero2.json\n');
  const warning = async () => (await ls.doValidation(document, settings({ gpuMemoryGiB: 40 }))).find((d) => d.code === 'estimate-exceeds-gpu-memory')?.message;
  const onDisk = await warning();
  assert.match(String(onDisk), /^Estimated ≈ \d+\.\d GiB per GPU for Qwen3-8B/);
  // The same service: the server tells it which document changed, and it says the script depends on it.
  const configUri = URI.file(configPath).toString();
  open.set(configPath, '{ "zero_optimization": { "stage": 3, "offload_optimizer": { "device": "cpu" }, "offload_param": { "device": "cpu" } } }');
  assert.deepEqual(ls.filesChanged([configUri]), [document.uri]);
  const unsaved = await warning();
  assert.notEqual(unsaved, onDisk);
  open.delete(configPath);
  assert.deepEqual(ls.filesChanged([configUri]), [document.uri]);
  assert.equal(await warning(), onDisk);
});

test('a missing config named by many commands: each gets the did-you-mean; a JSON file written later is suggested at the next check', async () => {
  const { ls, hosts } = service(files);
  const document = doc('scripts/train.sh', 'swift sft --deepspeed ../configs/ds_zero3.json\n'.repeat(3));
  const before = await ls.doValidation(document, settings());
  assert.deepEqual(codes(before), ['deepspeed-config-not-found', 'deepspeed-config-not-found', 'deepspeed-config-not-found']);
  assert.ok(before.every((d) => !/Did you mean/.test(String(d.message))), 'no JSON file near ds_zero3.json yet');
  hosts.write('configs/ds_zero_3.json', ds);
  const after = await ls.doValidation(TextDocument.create(document.uri, 'shellscript', 2, document.getText()), settings());
  assert.ok(after.every((d) => /Did you mean '\.\.\/configs\/ds_zero_3\.json'\?/.test(String(d.message))), String(after[0]?.message));
});
