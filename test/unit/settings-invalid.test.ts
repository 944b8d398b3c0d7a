/**
 * A setting whose value its definition refuses is ignored (the core only sees valid settings), and the editor is
 * told which one, why and what is used instead: "gpusPerNode": "8" used to make every estimate one of a single GPU's
 * settings without a word.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeIgnoredSetting, ignoredSettings, withDefaults } from '../../server/src/settings';
import { translator } from '../../server/src/l10n';

const sent = {
  gpusPerNode: '8',
  nodes: 0,
  gpuMemoryGiB: 80,
  dtype: 'bf32',
  model: null,
  loraRank: -1,
  deepspeedVersion: 'latest',
  configFiles: 'ds/*.json',
  inlayHints: { enabled: 'yes' },
  fragmentation: 'NaN',
};

test('the settings a client sent that are ignored, each with why: null is unset, not invalid', () => {
  const ignored = ignoredSettings(sent);
  assert.deepEqual(
    ignored.map((i) => [i.name, i.value, i.problem.kind]),
    [
      ['configFiles', 'ds/*.json', 'notList'],
      ['inlayHints.enabled', 'yes', 'notBoolean'],
      ['gpusPerNode', '8', 'notNumber'],
      ['nodes', 0, 'range'],
      ['deepspeedVersion', 'latest', 'pattern'],
      ['loraRank', -1, 'range'],
      ['dtype', 'bf32', 'notAllowed'],
      ['fragmentation', 'NaN', 'notNumber'],
    ],
  );
  // What withDefaults makes of them: the default, or unset.
  const settings = withDefaults(sent);
  assert.equal(settings.gpusPerNode, undefined);
  assert.equal(settings['inlayHints.enabled'], true);
  assert.equal(settings.gpuMemoryGiB, 80);
  assert.deepEqual(ignoredSettings({}), []);
  assert.deepEqual(ignoredSettings(null), []);
  assert.deepEqual(ignoredSettings(withDefaults({ gpusPerNode: 8 })), [], 'valid values and defaults are not reported');
});

test('an ignored setting is worded with its name, its value, why and what is used instead, in English and Chinese', () => {
  const [configFiles, hints, gpus, nodes] = ignoredSettings(sent);
  const en = translator('en');
  assert.equal(describeIgnoredSetting(gpus!, en), 'ZeRO Lens ignores a setting: zeroLens.gpusPerNode must be a whole number (it is "8"). It is read as unset.');
  assert.equal(describeIgnoredSetting(nodes!, en), 'ZeRO Lens ignores a setting: zeroLens.nodes must be between 1 and 100000 (it is 0). It is read as unset.');
  assert.equal(describeIgnoredSetting(hints!, en), 'ZeRO Lens ignores a setting: zeroLens.inlayHints.enabled must be true or false (it is "yes"). The default, true, is used instead.');
  assert.equal(describeIgnoredSetting(configFiles!, en), 'ZeRO Lens ignores a setting: zeroLens.configFiles must be a list of text (it is "ds/*.json"). The default, [], is used instead.');
  const zh = translator('zh-cn');
  assert.equal(describeIgnoredSetting(gpus!, zh), 'ZeRO Lens 忽略了一项设置：zeroLens.gpusPerNode 必须是整数（当前值为 "8"）。按未设置处理。');
  assert.equal(describeIgnoredSetting(hints!, zh), 'ZeRO Lens 忽略了一项设置：zeroLens.inlayHints.enabled 必须是 true 或 false（当前值为 "yes"）。改用默认值 true。');
  // The glossary's rule: a space between the setting's Latin name and the Chinese after it, for every reason.
  const every = [
    ...ignoredSettings(sent),
    ...ignoredSettings({ model: 'x\u0007', cpuMemoryGiB: -1, loraRank: 0.5 }),
    ...ignoredSettings({ model: 5 }),
    ...ignoredSettings({ model: 'x'.repeat(2000) }),
  ];
  assert.deepEqual(new Set(every.map((i) => i.problem.kind)).size, 10, 'every kind of problem is worded');
  assert.ok(every.some((i) => i.problem.kind === 'range' && i.problem.max === Infinity), 'and a range without a maximum');
  for (const ignored of every) {
    const said = describeIgnoredSetting(ignored, zh);
    assert.match(said, new RegExp(`：zeroLens\\.${ignored.name.replace('.', '\\.')} [\\u4e00-\\u9fff]`), said);
  }
  // A long value is cut, so the message stays one line.
  const [long] = ignoredSettings({ model: 'x'.repeat(2000) });
  assert.ok(describeIgnoredSetting(long!, en).length < 200);
});

test('a CUDA context larger than any GPU is refused, not estimated as "≈ ? GiB/GPU"', () => {
  // cudaContextGiB had no maximum: 1e308 GiB made every estimate infinite, shown as '?'.
  assert.deepEqual(ignoredSettings({ cudaContextGiB: 1e308 }).map((i) => i.problem), [{ kind: 'range', min: 0, max: 4096 }]);
  assert.equal(withDefaults({ cudaContextGiB: 2.5 }).cudaContextGiB, 2.5);
});
