/**
 * A config's release-dependent diagnostics follow the workspace's pin as it changes on disk: the pin files and
 * environments findDeepSpeedRelease looked at are the config's dependencies, so `filesChanged` names the config
 * and its next validation reads the new pin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

// WarmupLR's isinstance(warmup_num_steps, int) refuses a float from 0.19.3 on (releaseChecks.warmupStepsInt).
const config = JSON.stringify({ train_micro_batch_size_per_gpu: 1, scheduler: { type: 'WarmupLR', params: { warmup_num_steps: 100.5 } } }, null, 2);
const uriOf = (name: string) => URI.file(path.join(workspaceRoot, name)).toString();

function workspace(files: Record<string, string>) {
  const hosts = memoryHosts({ 'ds_config.json': config, ...files });
  const service = getLanguageService(hosts);
  const document = TextDocument.create(uriOf('ds_config.json'), 'ds-config', 1, config);
  const severity = async () => (await service.doValidation(document, defaultSettings)).find((d) => d.code === 'integer-fraction')?.severity;
  return { hosts, service, document, severity };
}

test('a pin changed on disk names the config that was checked under it, which is then checked under the new release', async () => {
  const { hosts, service, document, severity } = workspace({ 'requirements.txt': 'deepspeed==0.19.2\n' });
  assert.equal(await severity(), DiagnosticSeverity.Warning);
  hosts.write('requirements.txt', 'deepspeed==0.19.3\n');
  assert.deepEqual(service.filesChanged([uriOf('requirements.txt')]), [document.uri]);
  assert.equal(await severity(), DiagnosticSeverity.Error);
});

test('a pin file created where none was read before reaches the config too', async () => {
  const { hosts, service, document, severity } = workspace({});
  assert.equal(await severity(), DiagnosticSeverity.Error, 'no release known: the schema release holds');
  hosts.write('pyproject.toml', '[project]\ndependencies = ["deepspeed==0.19.2"]\n');
  assert.deepEqual(service.filesChanged([uriOf('pyproject.toml')]), [document.uri]);
  assert.equal(await severity(), DiagnosticSeverity.Warning);
});

test("a file the release lookup never read (a trainer's log) names no config", async () => {
  const { service, severity } = workspace({ 'requirements.txt': 'deepspeed==0.19.2\n' });
  await severity();
  assert.deepEqual(service.filesChanged([uriOf('output/log.txt')]), []);
});

test('an environment that appears under a folder the lookup listed names the config (pip install into .venv)', async () => {
  const { service, document, severity } = workspace({});
  await severity();
  const metadata = uriOf('.venv/lib/python3.11/site-packages/deepspeed-0.19.2.dist-info/METADATA');
  assert.deepEqual(service.filesChanged([metadata]), [document.uri]);
});

/** A Trainer script whose --max_grad_norm DeepSpeed applies or not by release (the config has no gradient_clipping). */
const clippingScript = 'torchrun --nproc_per_node 2 train.py --max_grad_norm 1.0 --deepspeed ds.json\n';
function scriptWorkspace() {
  const hosts = memoryHosts({ 'ds.json': JSON.stringify({ train_micro_batch_size_per_gpu: 'auto' }), 'train.sh': clippingScript, 'requirements.txt': 'deepspeed==0.19.2\n' });
  const service = getLanguageService(hosts);
  const document = TextDocument.create(uriOf('train.sh'), 'shellscript', 1, clippingScript);
  const warned = async () => (await service.doValidation(document, defaultSettings)).some((d) => d.code === 'max-grad-norm-not-applied');
  return { hosts, service, document, warned };
}

test("a launch script's release-dependent check (the Trainer's --max_grad_norm) follows the pin too", async () => {
  const { hosts, service, document, warned } = scriptWorkspace();
  assert.equal(await warned(), true, 'no clipping under 0.19.2');
  hosts.write('requirements.txt', 'deepspeed==0.19.3\n');
  assert.ok(service.filesChanged([uriOf('requirements.txt')]).includes(document.uri));
  assert.equal(await warned(), false, 'clipping at 1.0 from 0.19.3 on');
});

test("a launch script's keystroke reads no pin file again: the release its --max_grad_norm check found is kept until the pin changes", async () => {
  const { hosts, service, document, warned } = scriptWorkspace();
  // The pin's reads, from here on (the checks read the config the script names at each version; the training
  // layer's cache holds it for the estimate).
  const pinReads: string[] = [];
  const readFile = hosts.fs.readFile.bind(hosts.fs);
  hosts.fs.readFile = (file, kind) => (file.endsWith('requirements.txt') && pinReads.push(file), readFile(file, kind));
  assert.equal(await warned(), true);
  assert.equal(pinReads.length, 1);
  TextDocument.update(document, [{ text: clippingScript.replace('--nproc_per_node 2', '--nproc_per_node 4') }], 2);
  service.filesChanged([document.uri]);
  assert.equal(await warned(), true);
  assert.equal(pinReads.length, 1, 'the keystroke looked the release up again');
  hosts.write('requirements.txt', 'deepspeed==0.19.3\n');
  service.filesChanged([uriOf('requirements.txt')]);
  assert.equal(await warned(), false);
});

test('a closed config no longer depends on the pin or the folders its lookup listed', async () => {
  const { service, document, severity } = workspace({ 'requirements.txt': 'deepspeed==0.19.2\n' });
  await severity();
  service.documentClosed(document.uri);
  assert.deepEqual(service.filesChanged([uriOf('requirements.txt'), uriOf('.venv/lib/python3.11/site-packages/deepspeed-0.19.2.dist-info')]), []);
});

/** The config's next version, one keystroke away (a digit of the warmup's fraction). */
const keystroke = (document: TextDocument) => TextDocument.update(document, [{ text: config.replace('100.5', '100.7') }], document.version + 1);

test('a keystroke reads no pin file again: the release found holds until a file the lookup read changes', async () => {
  const { hosts, service, document, severity } = workspace({ 'requirements.txt': 'deepspeed==0.19.2\n' });
  assert.equal(await severity(), DiagnosticSeverity.Warning);
  const reads = hosts.reads();
  keystroke(document);
  service.filesChanged([document.uri]);
  assert.equal(await severity(), DiagnosticSeverity.Warning);
  assert.equal(hosts.reads(), reads, 'the release was looked up again');
  // Written without an event, the pin is not seen; its event, or settings and folders changing, look again.
  hosts.write('requirements.txt', 'deepspeed==0.19.3\n');
  assert.equal(await severity(), DiagnosticSeverity.Warning);
  service.filesChanged([uriOf('requirements.txt')]);
  assert.equal(await severity(), DiagnosticSeverity.Error);
  hosts.write('requirements.txt', 'deepspeed==0.19.2\n');
  service.invalidateWorkspace();
  assert.equal(await severity(), DiagnosticSeverity.Warning);
});

test('the release found is looked up again under another zeroLens.deepspeedVersion, and after the config closes', async () => {
  const { hosts, service, document, severity } = workspace({ 'requirements.txt': 'deepspeed==0.19.2\n' });
  assert.equal(await severity(), DiagnosticSeverity.Warning);
  const under = async (deepspeedVersion: string | undefined) => (await service.doValidation(document, { ...defaultSettings, deepspeedVersion })).find((d) => d.code === 'integer-fraction')?.severity;
  assert.equal(await under('0.19.3'), DiagnosticSeverity.Error);
  assert.equal(await under(undefined), DiagnosticSeverity.Warning);
  hosts.write('requirements.txt', 'deepspeed==0.19.3\n');
  service.documentClosed(document.uri);
  assert.equal(await severity(), DiagnosticSeverity.Error);
});

test('a hover on a key whose default changed between releases reads the pin once, then keeps it until the pin changes', async () => {
  const { hosts, service, severity } = workspace({ 'requirements.txt': 'deepspeed==0.19.2\n' });
  await severity();
  const clipping = TextDocument.create(uriOf('clip.json'), 'ds-config', 1, '{\n  "gradient_clipping": 1.0\n}\n');
  const hoverText = async () => JSON.stringify((await service.doHover(clipping, { line: 1, character: 5 }, defaultSettings))?.contents);
  assert.match(await hoverText(), /in DeepSpeed 0\.19\.2 \(requirements\.txt\)/);
  const reads = hosts.reads();
  assert.match(await hoverText(), /0\.19\.2/);
  assert.equal(hosts.reads(), reads, 'the second hover looked the release up again');
  hosts.write('requirements.txt', 'deepspeed==0.19.3\n');
  service.filesChanged([uriOf('requirements.txt')]);
  assert.match(await hoverText(), /in DeepSpeed 0\.19\.3 \(requirements\.txt\)/);
});
