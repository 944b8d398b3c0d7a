/** The DeepSpeed release a workspace runs: found in the workspace or set, and the defaults that follow it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { findDeepSpeedRelease, findPinnedRelease } from '../../server/src/dsconfig/deepspeedRelease';
import { readFileSync } from 'node:fs';
import { memoryHosts, workspaceRoot } from './context-hosts';

const config = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "gradient_clipping": 1.0\n}\n';

async function clippingHover(files: Record<string, string>, deepspeedVersion?: string): Promise<string> {
  const service = getLanguageService(memoryHosts({ 'ds_config.json': config, ...files }));
  const document = TextDocument.create(URI.file(path.join(workspaceRoot, 'ds_config.json')).toString(), 'ds-config', 1, config);
  const hover = await service.doHover(document, { line: 2, character: 5 }, { ...defaultSettings, deepspeedVersion });
  return (hover?.contents as { value: string }).value;
}

test("gradient_clipping's default follows the release: 0 under 0.19.2, 1 from 0.19.3 on (#8068)", async () => {
  assert.match(await clippingHover({}, '0.19.2'), /Default: `0` in DeepSpeed 0\.19\.2 \(zeroLens\.deepspeedVersion\); `1` only from 0\.19\.3 on \(#8068\)/);
  assert.match(await clippingHover({}, '0.19.3'), /Default: `1` in DeepSpeed 0\.19\.3 \(zeroLens\.deepspeedVersion\); since 0\.19\.3 \(#8068\)/);
  // Not known: both, with the release each belongs to.
  assert.match(await clippingHover({}), /Default: `1` from DeepSpeed 0\.19\.3 on \(#8068\); `0` before/);
  // A pin in the workspace.
  assert.match(await clippingHover({ 'requirements.txt': 'torch==2.4.0\ndeepspeed==0.14.4\n' }), /`0` in DeepSpeed 0\.14\.4 \(requirements\.txt\)/);
});

test('the release is read from the setting, exact pins and lock files; a range says nothing', async () => {
  const find = (files: Record<string, string>, setting?: string) => findDeepSpeedRelease(memoryHosts(files).fs, [workspaceRoot], setting);
  assert.deepEqual(await find({}, '0.15.1'), { version: '0.15.1', source: 'zeroLens.deepspeedVersion' });
  assert.deepEqual(await find({ 'requirements.txt': 'deepspeed>=0.12\n' }), undefined);
  assert.deepEqual(await find({ 'uv.lock': '[[package]]\nname = "deepspeed"\nversion = "0.16.4"\n' }), { version: '0.16.4', source: 'uv.lock' });
  assert.deepEqual(await find({ 'pyproject.toml': '[project]\ndependencies = ["deepspeed==0.17.0"]\n' }), { version: '0.17.0', source: 'pyproject.toml' });
});

test('a pin with extras (PEP 508) and conda\'s one "=" pin the release; conda\'s ranges do not', async () => {
  const find = (files: Record<string, string>) => findDeepSpeedRelease(memoryHosts(files).fs, [workspaceRoot], undefined);
  // PEP 508: name [extras] version-spec (packaging.requirements); pip installs deepspeed 0.14.4 for both.
  assert.deepEqual(await find({ 'requirements.txt': 'deepspeed[autotuning]==0.14.4\n' }), { version: '0.14.4', source: 'requirements.txt' });
  assert.deepEqual(await find({ 'requirements.txt': 'deepspeed [autotuning, triton] == 0.14.4\n' }), { version: '0.14.4', source: 'requirements.txt' });
  assert.deepEqual(await find({ 'pyproject.toml': '[project]\ndependencies = ["deepspeed[autotuning]==0.17.0"]\n' }), { version: '0.17.0', source: 'pyproject.toml' });
  // conda's match spec: `deepspeed=0.14.4` is 0.14.4 (or 0.14.4.x), with or without a build string; `>=` is a range.
  assert.deepEqual(await find({ 'environment.yml': 'dependencies:\n  - python=3.10\n  - deepspeed=0.14.4\n' }), { version: '0.14.4', source: 'environment.yml' });
  assert.deepEqual(await find({ 'environment.yml': 'dependencies:\n  - deepspeed=0.14.4=py310h1234_0\n' }), { version: '0.14.4', source: 'environment.yml' });
  assert.deepEqual(await find({ 'environment.yml': 'dependencies:\n  - pip:\n    - deepspeed==0.15.1\n' }), { version: '0.15.1', source: 'environment.yml' });
  assert.deepEqual(await find({ 'environment.yml': 'dependencies:\n  - deepspeed>=0.14\n' }), undefined);
});

test('zeroLens.deepspeedVersion wins over a pin in the workspace, as its description says', async () => {
  // package.nls.json said the setting applies 'when no requirements or lock file in the workspace pins it', while
  // findDeepSpeedRelease reads it first: a release set by hand corrects a stale pin.
  const find = (files: Record<string, string>, setting?: string) => findDeepSpeedRelease(memoryHosts(files).fs, [workspaceRoot], setting);
  assert.deepEqual(await find({ 'requirements.txt': 'deepspeed==0.14.4\n' }, '0.19.3'), { version: '0.19.3', source: 'zeroLens.deepspeedVersion' });
  assert.deepEqual(await find({ 'requirements.txt': 'deepspeed==0.14.4\n' }), { version: '0.14.4', source: 'requirements.txt' });
  const nls = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.nls.json'), 'utf8')) as Record<string, string>;
  assert.match(nls['config.deepspeedVersion.markdownDescription'], /Unset: the release .* pins/);
});

test('the same pins name trl\'s release, and neither package is read as the other', async () => {
  const find = (files: Record<string, string>, name: 'deepspeed' | 'trl') => findPinnedRelease(memoryHosts(files).fs, [workspaceRoot], name);
  const both = 'torch==2.4.0\ntrl==0.18.2\ndeepspeed==0.16.4\n';
  assert.deepEqual(await find({ 'requirements.txt': both }, 'trl'), { version: '0.18.2', source: 'requirements.txt' });
  assert.deepEqual(await find({ 'requirements.txt': both }, 'deepspeed'), { version: '0.16.4', source: 'requirements.txt' });
  assert.deepEqual(await find({ 'requirements.txt': 'deepspeed==0.16.4\n' }, 'trl'), undefined);
  assert.deepEqual(await find({ 'requirements.txt': 'trl==0.18.2\n' }, 'deepspeed'), undefined);
  assert.deepEqual(await find({ 'poetry.lock': '[[package]]\nname = "trl"\nversion = "0.17.0"\n' }, 'trl'), { version: '0.17.0', source: 'poetry.lock' });
  assert.deepEqual(await find({ 'Pipfile.lock': '{"default": {"trl": {"version": "==0.16.1"}}}' }, 'trl'), { version: '0.16.1', source: 'Pipfile.lock' });
  assert.deepEqual(await find({ 'requirements.txt': 'trl>=0.14\n' }, 'trl'), undefined);
});
