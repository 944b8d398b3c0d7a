import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli, type CliRun } from './cli-helpers';
import { formatSarif } from '../../server/src/cli/formatReport';

const root = path.resolve(__dirname, '../..');
const broken = 'test/fixtures/dsconfig/ds_config_broken.json';

function check(args: string[], cwd = root): Promise<CliRun> {
  return runCli(['check', ...args], cwd);
}

test('text format: compiler-style lines with 1-based positions and a summary; exit 1 on errors', async () => {
  const r = await check([broken]);
  assert.equal(r.code, 1, r.err);
  assert.equal(r.err, '');
  const lines = r.out.trimEnd().split('\n');
  assert.ok(lines.includes(`${broken}:3:3: error [batch-size-mismatch] train_batch_size (30) must equal train_micro_batch_size_per_gpu × gradient_accumulation_steps × data-parallel world size = 4 × 2 × N. 30 is not a multiple of 8, so DeepSpeed fails at start for every GPU count (AssertionError).`), r.out);
  assert.ok(lines.some((l) => l.startsWith(`${broken}:2:3: warning [jsonc-comment] `)));
  for (const line of lines.slice(0, -1)) assert.match(line, /^[^:]+:\d+:\d+: (error|warning|information) \[[a-z0-9-]+\] \S/);
  assert.match(lines[lines.length - 1], /^4 errors, 8 warnings, 0 information in 1 file\.$/);
});

test('json format: the documented array shape', async () => {
  const r = await check([broken, '--format', 'json']);
  assert.equal(r.code, 1);
  const report = JSON.parse(r.out) as { file: string; diagnostics: { range: { start: { line: number; character: number }; end: object }; severity: string; code: string; message: string }[] }[];
  assert.equal(report.length, 1);
  assert.equal(report[0].file, broken);
  const mismatch = report[0].diagnostics.find((d) => d.code === 'batch-size-mismatch');
  assert.deepEqual(mismatch?.range, { start: { line: 2, character: 2 }, end: { line: 2, character: 20 } });
  assert.equal(mismatch?.severity, 'error');
  for (const d of report[0].diagnostics) {
    assert.deepEqual(Object.keys(d).sort(), ['code', 'message', 'range', 'severity']);
    assert.ok(['error', 'warning', 'information', 'hint'].includes(d.severity));
  }
  assert.deepEqual(JSON.parse((await check(['--format=json', broken])).out), report);
});

test('the ms-swift and LLaMA-Factory presets pass (exit 0), given as a folder', async () => {
  const r = await check(['test/fixtures/presets']);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /^0 errors, \d+ warnings?, 0 information in 13 files/m);
  const json = JSON.parse((await check(['test/fixtures/presets', '--format', 'json'])).out) as { file: string }[];
  assert.equal(json.length, 13);
  assert.ok(json.every((f) => f.file.startsWith('test/fixtures/presets' + path.sep)));
});

test('a folder: JSON files that are not DeepSpeed configs are skipped, configs and scripts are checked', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-check-'));
  mkdirSync(path.join(dir, 'configs'));
  copyFileSync(path.join(root, broken), path.join(dir, 'configs', 'ds_config_zero2.json'));
  writeFileSync(path.join(dir, 'package.json'), '{"name": "not-a-config"}');
  writeFileSync(path.join(dir, 'train.sh'), 'deepspeed train.py --deepspeed configs/ds_config_zero2.json\n');
  const r = await check(['.', '--format', 'json'], dir);
  const files = (JSON.parse(r.out) as { file: string }[]).map((f) => f.file).sort();
  assert.deepEqual(files, [path.join('configs', 'ds_config_zero2.json'), 'train.sh']);
  assert.equal(r.code, 1);
});

test('usage errors and unreadable files exit 2 with a clear message', async () => {
  const none = await check([]);
  assert.equal(none.code, 2);
  assert.match(none.err, /no files given/);
  const format = await check([broken, '--format', 'xml']);
  assert.equal(format.code, 2);
  assert.match(format.err, /--format must be "text", "json" or "sarif", not "xml"/);
  const option = await check([broken, '--fix']);
  assert.equal(option.code, 2);
  assert.match(option.err, /unknown option '--fix'/);
  const missing = await check(['no/such/ds_config.json']);
  assert.equal(missing.code, 2);
  assert.equal(missing.err, "zero-lens check: cannot read 'no/such/ds_config.json': no such file or folder.\n");
  // The summary does not say "no problems" alone about a file it could not read.
  assert.equal(missing.out, 'No problems found in 0 files (1 not read).\n');
  // Unreadable beats "errors found", and the readable files are still reported.
  const mixed = await check([broken, 'missing.json']);
  assert.equal(mixed.code, 2);
  assert.match(mixed.out, /batch-size-mismatch/);
  assert.match(mixed.out, / in 1 file \(1 not read\)\.\n$/);
  // In JSON a script sees which file was not read and why, beside the files that were.
  const mixedJson = await check([broken, 'missing.json', '--format', 'json']);
  assert.equal(mixedJson.code, 2);
  const entries = JSON.parse(mixedJson.out) as { file: string; unreadable?: string; diagnostics: unknown[] }[];
  assert.deepEqual(entries.find((e) => e.file === 'missing.json'), { file: 'missing.json', unreadable: 'no such file or folder', diagnostics: [] });
  assert.ok(entries.some((e) => e.file === broken && e.diagnostics.length > 0));
  // In SARIF, as a run that could not do all it was asked: an unsuccessful invocation naming the file.
  const sarif = JSON.parse((await check([broken, 'missing.json', '--format', 'sarif'])).out) as { runs: { invocations?: { executionSuccessful: boolean; toolExecutionNotifications: { level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[]; results: unknown[] }[] };
  const [invocation] = sarif.runs[0].invocations ?? [];
  assert.equal(invocation?.executionSuccessful, false);
  assert.deepEqual(invocation.toolExecutionNotifications.map((n) => [n.level, n.message.text, n.locations[0].physicalLocation.artifactLocation.uri]), [['error', 'no such file or folder', 'missing.json']]);
  assert.ok(sarif.runs[0].results.length > 0);
  assert.equal((JSON.parse((await check([broken, '--format', 'sarif'])).out) as { runs: { invocations?: unknown }[] }).runs[0].invocations, undefined);
  const help = await check(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /Usage: zero-lens check/);
  // No command at all is a usage error too: usage on stderr, nothing a pipe would take for output.
  const bare = await runCli([], root);
  assert.deepEqual([bare.code, bare.out], [2, '']);
  assert.match(bare.err, /^Usage:[^]*Exit status: 0 no errors, 1 errors found \(check\), 2 usage error/);
});

test('files that are not UTF-8 text: binary and UTF-16 are named unreadable, other bytes are an error at the first one', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-check-'));
  // Checked as JSON, a binary file gave a page of syntax errors quoting its bytes (escape sequences included).
  writeFileSync(path.join(dir, 'ds_config.json'), Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x00, 0x1b, 0x5b, 0x32, 0x4a, 0x7d]));
  const binary = await check(['ds_config.json'], dir);
  assert.equal(binary.code, 2);
  assert.equal(binary.err, "zero-lens check: cannot read 'ds_config.json': it is a binary file, not text.\n");
  writeFileSync(path.join(dir, 'utf16.json'), Buffer.from('\ufeff{}', 'utf16le'));
  assert.match((await check(['utf16.json'], dir)).err, /'utf16.json': it is UTF-16 text; .* save it as UTF-8/);
  // Latin-1 "café": Python's open() raises UnicodeDecodeError, so it is an error where the byte is.
  writeFileSync(path.join(dir, 'latin1.json'), Buffer.concat([Buffer.from('{"train_batch_size": 8,\n "_comment": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]));
  const latin1 = await check(['latin1.json'], dir);
  assert.equal(latin1.code, 1);
  assert.match(latin1.out, /^latin1\.json:2:18: error \[not-utf8\] Byte 0xE9 is not UTF-8: .*UnicodeDecodeError/m);
  // Inside a folder a binary file is not ours; a folder with nothing to check says so.
  mkdirSync(path.join(dir, 'only-binary'));
  writeFileSync(path.join(dir, 'only-binary', 'blob.json'), Buffer.from([0, 1, 2]));
  // A FIFO named like a config made the walk wait forever for a writer.
  spawnSync('mkfifo', [path.join(dir, 'only-binary', 'pipe.json')]);
  const folder = await check(['only-binary'], dir);
  assert.equal(folder.code, 0);
  assert.equal(folder.err, "zero-lens check: no DeepSpeed configs, launch scripts or launcher YAML found in 'only-binary'.\n");
});

test('control characters quoted from a file never reach the terminal', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-check-'));
  writeFileSync(path.join(dir, 'ds_config.json'), '{"train_batch_size": 8, \u001b[2J}');
  const r = await check(['ds_config.json'], dir);
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.out, /\u001b/);
  assert.match(r.out, /Unexpected '\ufffd/);
});

test('the built CLI (node dist/cli.js) exits 1 / 0 / 2', () => {
  const cli = path.join(root, 'dist/cli.js');
  assert.ok(existsSync(cli), 'run `npm run build` first');
  const run = (...args: string[]) => spawnSync(process.execPath, [cli, 'check', ...args], { cwd: root, encoding: 'utf8' });
  const bad = run(broken);
  assert.equal(bad.status, 1, bad.stderr);
  assert.match(bad.stdout, /error \[fp16-and-bf16\]/);
  assert.equal(run('test/fixtures/presets/swift-zero3.json').status, 0);
  const missing = run('missing.json');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read 'missing.json'/);
});

test('files named on the command line are classified by content: a .slurm launcher is a script, an argument JSON a launcher config, anything else is skipped', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zl-classify-'));
  writeFileSync(path.join(dir, 'ds.json'), '{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 2}}\n');
  writeFileSync(path.join(dir, 'train.slurm'), '#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\nsrun torchrun --nproc_per_node 8 train.py \\\n  --deepspeed ds.json\n');
  // ms-swift's examples/yaml/deepspeed/sft.json, read by `swift sft --config sft.json`.
  writeFileSync(path.join(dir, 'sft.json'), '{"model": "Qwen/Qwen2.5-7B-Instruct", "deepspeed": "zero2", "per_device_train_batch_size": 1, "gradient_accumulation_steps": 8, "output_dir": "output"}\n');
  writeFileSync(path.join(dir, 'model.json'), '{"hidden_size": 1024, "num_hidden_layers": 24}\n');
  const r = await check(['train.slurm', 'sft.json', 'model.json', '--format', 'json'], dir);
  assert.equal(r.code, 0, r.out);
  const reports = JSON.parse(r.out) as { file: string; skipped?: string; diagnostics: { severity: string; code: string }[] }[];
  assert.deepEqual(reports.map((x) => [x.file, x.skipped !== undefined]), [['train.slurm', false], ['sft.json', false], ['model.json', true]]);
  for (const report of reports) assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error'), [], report.file);
  assert.ok(!reports.some((x) => x.diagnostics.some((d) => ['json-syntax', 'batch-size-missing', 'ignored-key', 'unknown-key'].includes(d.code))));
  const text = await check(['model.json'], dir);
  assert.equal(text.code, 0);
  assert.match(text.out, /^model\.json: skipped: not a DeepSpeed config, FSDP config, launch script or launcher config/m);
});

test('a memory verdict for CI: --gpu-memory and --cpu-memory make "does not fit" an error at the stage and the --deepspeed it concerns; --format sarif', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zl-verdict-'));
  writeFileSync(path.join(dir, 'ds_config.json'), '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": {"stage": 0}\n}\n');
  writeFileSync(path.join(dir, 'offload.json'), '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}, "offload_param": {"device": "cpu"}}\n}\n');
  writeFileSync(path.join(dir, 'train.sh'), 'NPROC_PER_NODE=8 swift sft --model Qwen/Qwen2.5-7B-Instruct --deepspeed ds_config.json\nNPROC_PER_NODE=8 swift sft --model Qwen/Qwen2.5-7B-Instruct --deepspeed offload.json\n');
  const plain = await check(['ds_config.json', 'train.sh'], dir);
  assert.equal(plain.code, 0, plain.out);
  const gpu = await check(['ds_config.json', 'train.sh', '--gpu-memory', '16', '--format', 'json'], dir);
  assert.equal(gpu.code, 1, gpu.out);
  const reports = JSON.parse(gpu.out) as { file: string; diagnostics: { severity: string; code: string; range: { start: { line: number } } }[] }[];
  const exceeds = reports.flatMap((r) => r.diagnostics.filter((d) => d.code === 'estimate-exceeds-gpu-memory').map((d) => [r.file, d.severity, d.range.start.line]));
  assert.deepEqual(exceeds, [['ds_config.json', 'error', 2], ['train.sh', 'error', 0]]);
  const host = await check(['offload.json', '--cpu-memory', '8', '--format', 'json'], dir);
  assert.equal(host.code, 1, host.out);
  assert.ok((JSON.parse(host.out) as { diagnostics: { code: string; severity: string }[] }[])[0].diagnostics.some((d) => d.code === 'estimate-exceeds-cpu-memory' && d.severity === 'error'));
  const sarif = JSON.parse((await check(['ds_config.json', '--gpu-memory', '16', '--format', 'sarif'], dir)).out) as { version: string; runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[] };
  assert.equal(sarif.version, '2.1.0');
  const result = sarif.runs[0].results.find((r) => r.ruleId === 'estimate-exceeds-gpu-memory');
  assert.equal(result?.level, 'error');
  assert.deepEqual(result?.locations[0].physicalLocation.artifactLocation.uri, 'ds_config.json');
  assert.equal(result?.locations[0].physicalLocation.region.startLine, 3);
  assert.ok(sarif.runs[0].tool.driver.rules.some((r) => r.id === 'estimate-exceeds-gpu-memory'));
  assert.equal((await check(['ds_config.json', '--gpu-memory', 'lots'], dir)).code, 2);
});

test("check reads the workspace's .vscode/settings.json as the editor does: its GPU count decides the batch check; a capacity on the command line replaces the workspace's", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zl-settings-'));
  // 32 = 4 × 4 × 2 GPUs: true for some GPU count, false on the 4 GPUs the workspace says it has (64).
  writeFileSync(path.join(dir, 'ds_config.json'), '{\n  "train_batch_size": 32,\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 4,\n  "zero_optimization": {"stage": 0}\n}\n');
  const codes = async (args: string[] = []) => {
    const r = await check(['ds_config.json', '--format', 'json', ...args], dir);
    return { code: r.code, diagnostics: (JSON.parse(r.out) as { diagnostics: { code: string; severity: string }[] }[])[0].diagnostics };
  };
  const without = await codes();
  assert.equal(without.code, 0);
  assert.ok(!without.diagnostics.some((d) => d.severity === 'error'), JSON.stringify(without.diagnostics));
  mkdirSync(path.join(dir, '.vscode'));
  // JSON with comments and trailing commas, flat dotted keys, as VS Code writes it.
  writeFileSync(path.join(dir, '.vscode', 'settings.json'), '{\n  // the cluster\n  "zeroLens.gpusPerNode": 4,\n  "zeroLens.model": "Qwen/Qwen2.5-7B",\n  "zeroLens.gpuMemoryGiB": 16,\n}\n');
  const withSettings = await codes();
  assert.equal(withSettings.code, 1);
  assert.ok(withSettings.diagnostics.some((d) => d.code === 'batch-size-mismatch' && d.severity === 'error'), JSON.stringify(withSettings.diagnostics));
  // The workspace's GPU memory gives the editor's fit warning; only a capacity given to check makes it an error.
  assert.ok(withSettings.diagnostics.some((d) => d.code === 'estimate-exceeds-gpu-memory' && d.severity === 'warning'), JSON.stringify(withSettings.diagnostics));
  const verdict = await codes(['--gpu-memory', '4096']);
  assert.ok(!verdict.diagnostics.some((d) => d.code === 'estimate-exceeds-gpu-memory'), JSON.stringify(verdict.diagnostics));
  assert.equal((await check(['ds_config.json'], dir)).err, '', 'valid settings: nothing said');
});

test('a .vscode/settings.json value the setting refuses is said on stderr, as the editor says it, and read as the definition says', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zl-settings-bad-'));
  writeFileSync(path.join(dir, 'ds_config.json'), '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": {"stage": 2}\n}\n');
  mkdirSync(path.join(dir, '.vscode'));
  writeFileSync(path.join(dir, '.vscode', 'settings.json'), '{\n  "zeroLens.gpusPerNode": "8",\n  "zeroLens.dtype": "bf32"\n}\n');
  const r = await check(['ds_config.json'], dir);
  assert.equal(r.code, 0);
  assert.match(r.err, /^zero-lens check: ZeRO Lens ignores a setting: zeroLens\.gpusPerNode must be a whole number \(it is "8"\)\. It is read as unset\.$/m);
  assert.match(r.err, /^zero-lens check: ZeRO Lens ignores a setting: zeroLens\.dtype must be one of .*\(it is "bf32"\)\./m);
});

test('SARIF names each file by a URI reference: a space, "#" or "%" in a name is percent-encoded, an absolute path is a file: URI, columns are UTF-16 code units', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zl-sarif-uri-'));
  mkdirSync(path.join(dir, 'run #1'));
  // The emoji before the error is two UTF-16 code units: the column the editor (LSP) counts.
  const config = '{\n  "train_micro_batch_size_per_gpu": 1, "_note": "🚀", "zero_optimization": {"stage": 5}\n}\n';
  writeFileSync(path.join(dir, 'run #1', 'ds 100%.json'), config);
  type Sarif = { runs: { columnKind?: string; results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startColumn: number } } }[] }[]; invocations?: { toolExecutionNotifications: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] }[] };
  const relative = JSON.parse((await check(['run #1/ds 100%.json', 'gone #2.json', '--format', 'sarif'], dir)).out) as Sarif;
  const result = relative.runs[0].results.find((r) => r.ruleId === 'invalid-value');
  assert.equal(result?.locations[0].physicalLocation.artifactLocation.uri, 'run%20%231/ds%20100%25.json');
  assert.equal(relative.runs[0].invocations?.[0].toolExecutionNotifications[0].locations[0].physicalLocation.artifactLocation.uri, 'gone%20%232.json');
  assert.equal(relative.runs[0].columnKind, 'utf16CodeUnits');
  assert.equal(result?.locations[0].physicalLocation.region.startColumn, config.split('\n')[1].indexOf('5') + 1);
  const absolute = JSON.parse((await check([path.join(dir, 'run #1', 'ds 100%.json'), '--format', 'sarif'], dir)).out) as Sarif;
  const uri = absolute.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri;
  assert.equal(uri, pathToFileURL(path.join(dir, 'run #1', 'ds 100%.json')).href);
});

test('SARIF URIs of Windows paths: a drive path and a UNC share are file: URIs, a relative path keeps its segments', () => {
  const uris = (JSON.parse(formatSarif([], ['C:\\runs\\ds 1.json', '\\\\server\\share\\ds.json', 'configs\\a#b.json'].map((file) => ({ file, reason: 'r' })))) as { runs: { invocations: { toolExecutionNotifications: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] }[] }).runs[0].invocations[0].toolExecutionNotifications.map((n) => n.locations[0].physicalLocation.artifactLocation.uri);
  assert.deepEqual(uris, ['file:///C:/runs/ds%201.json', 'file://server/share/ds.json', 'configs/a%23b.json']);
});
