import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import * as esbuild from 'esbuild';
import { settingDefinitions, settingProblem, type SettingDefinition, type SettingName } from '../../server/src/protocol/settings';
import { defaultSettings, withDefaults } from '../../server/src/settings';
import { parseSettingValue, SETTING_KEYS, SETTING_SPECS } from '../../client/src/sidebar/messages';

const packageJson = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));
/** package.json's texts are `%key%` references into package.nls.json (English), as VS Code reads them. */
const nls: Record<string, string> = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.nls.json'), 'utf8'));
function resolved(value: unknown): unknown {
  if (typeof value === 'string') return /^%(.+)%$/.test(value) ? (nls[value.slice(1, -1)] ?? value) : value;
  if (Array.isArray(value)) return value.map(resolved);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(v)]));
  return value;
}
const names = Object.keys(settingDefinitions) as SettingName[];

/** A definition as package.json's `contributes.configuration.properties` writes it, less its texts. */
function contributed(definition: SettingDefinition): Record<string, unknown> {
  const { markdown: _textKind, languageClientOnly: _readByTheClient, ...schema } = definition as SettingDefinition & Record<string, unknown>;
  const items = schema.items === undefined ? {} : { items: { type: schema.items } };
  // No default: nullable with a null default, so VS Code does not invent the zero of the type.
  const unset = 'default' in schema ? {} : { type: [schema.type, 'null'], default: null };
  const { type, ...rest } = schema;
  return { type, ...unset, ...rest, ...items };
}

test('package.json contributes exactly the defined settings, in the same order, field for field, their texts from package.nls.json', () => {
  const properties: Record<string, Record<string, unknown>> = packageJson.contributes.configuration.properties;
  assert.deepEqual(Object.keys(properties), names.map((name) => `zeroLens.${name}`));
  for (const name of names) {
    const { description, markdownDescription, enumDescriptions, ...schema } = properties[`zeroLens.${name}`];
    const definition: SettingDefinition = settingDefinitions[name];
    assert.deepEqual(schema, contributed(definition), name);
    // The settings editor renders markdown only from markdownDescription; the definition says which the text is.
    const text = definition.markdown ? markdownDescription : description;
    assert.equal(definition.markdown ? description : markdownDescription, undefined, name);
    assert.match(String(text), /^%.+%$/, name);
    assert.ok(String(resolved(text)).length > 20, `${name}: package.nls.json describes it`);
    if (enumDescriptions !== undefined) assert.equal((resolved(enumDescriptions) as string[]).length, (schema.enum as string[]).length, name);
  }
});

test('the bundles that read the definitions carry none of package.nls.json\'s texts: VS Code reads them from there', async () => {
  // The server's reader and the sidebar's writer, bundled as scripts/build.mjs bundles the core and the client.
  const { outputFiles } = await esbuild.build({
    entryPoints: [path.resolve(__dirname, '../../server/src/settings.ts'), path.resolve(__dirname, '../../client/src/sidebar/messages.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    outdir: path.resolve(__dirname, '../../.cache/unused'),
    external: ['vscode'],
    write: false,
    logLevel: 'silent',
  });
  const texts = Object.entries(nls).filter(([key]) => /^config\.[\w.-]+\.(markdownDescription|description)$/.test(key));
  assert.ok(texts.length >= names.length);
  for (const file of outputFiles) {
    for (const [key, text] of texts) assert.ok(!file.text.includes(text.slice(0, 30)), `${path.basename(file.path)} holds ${key}`);
  }
});

test('the server reads every setting it uses, with the defaults the definitions give', () => {
  const expected = Object.fromEntries(names.flatMap((name) => (!('languageClientOnly' in settingDefinitions[name]) && 'default' in settingDefinitions[name] ? [[name, settingDefinitions[name].default]] : [])));
  // Besides the settings, the locale every text is written in (derived from `language` and the display language),
  // and whether the editor checks json documents itself (the server's client says; the core's default is yes).
  const derived = { locale: 'en', editorChecksJson: true };
  assert.deepEqual(defaultSettings, { ...expected, ...derived });
  assert.deepEqual(withDefaults(undefined), { ...expected, ...derived });
  assert.deepEqual(withDefaults('not an object'), { ...expected, ...derived });
  assert.equal(withDefaults({}, 'en', false).editorChecksJson, false);
  assert.equal(withDefaults({}, 'zh-CN').locale, 'zh-cn');
  assert.equal(withDefaults({ language: 'en' }, 'zh-CN').locale, 'en');
});

test('the server takes valid values, nested as VS Code sends them, and falls back to the default for invalid ones', () => {
  const sent = {
    configFiles: ['train_cfg.json'],
    validate: false,
    inlayHints: { enabled: false },
    model: 'Qwen/Qwen3-8B',
    gpusPerNode: 8,
    gpuMemoryGiB: 79.5,
    loraRank: 0,
    dtype: 'fp16',
    fragmentation: 0,
    trace: { server: 'verbose' },
  };
  assert.deepEqual(withDefaults(sent), {
    ...defaultSettings,
    configFiles: ['train_cfg.json'],
    validate: false,
    'inlayHints.enabled': false,
    model: 'Qwen/Qwen3-8B',
    gpusPerNode: 8,
    gpuMemoryGiB: 79.5,
    loraRank: 0,
    dtype: 'fp16',
    fragmentation: 0,
  });
  const invalid = {
    configFiles: ['a.json', 3],
    validate: 'yes',
    inlayHints: true,
    model: 'Qwen\u0000',
    gpusPerNode: 2.5,
    nodes: 0,
    gpuMemoryGiB: Number.NaN,
    sequenceLength: '4096',
    dtype: 'int8',
    cudaContextGiB: -1,
    fragmentation: 1.5,
  };
  assert.deepEqual(withDefaults(invalid), defaultSettings);
});

test('the settings the server returns are its own: changing them changes no default', () => {
  const settings = withDefaults({});
  settings.configFiles.push('x.json');
  assert.deepEqual(withDefaults({}).configFiles, []);
});

test('the sidebar writes defined settings, with the definitions\' limits', () => {
  for (const key of SETTING_KEYS) {
    const definition: SettingDefinition = settingDefinitions[key];
    const spec = SETTING_SPECS[key];
    if (definition.type === 'integer' || definition.type === 'number') {
      assert.deepEqual(spec, { kind: 'number', integer: definition.type === 'integer', min: definition.minimum, max: definition.maximum }, key);
    } else if (definition.type === 'string') {
      assert.deepEqual(spec, definition.enum ? { kind: 'enum', values: definition.enum } : { kind: 'text', maxLength: definition.maxLength }, key);
    } else {
      assert.deepEqual(spec, { kind: definition.type }, key);
    }
  }
});

test('property: whatever the sidebar writes, the server reads as written', () => {
  fc.assert(
    fc.property(fc.constantFrom(...SETTING_KEYS), fc.oneof(fc.anything(), fc.integer(), fc.double(), fc.constantFrom('bf16', 'fp16', 'fp32', '  ', '  Qwen/Qwen3-8B  ')), (key, value) => {
      const parsed = parseSettingValue(key, value);
      if (!parsed.ok || parsed.value === null) return;
      assert.equal(settingProblem(settingDefinitions[key], parsed.value), undefined);
      assert.equal(withDefaults({ [key]: parsed.value })[key], parsed.value);
    }),
  );
});

test('a nested setting written with its dotted name, as settings.json writes it, is read too', () => {
  // Neovim answers workspace/configuration with the table the user wrote: `zeroLens = { ['inlayHints.enabled'] = false }`
  // copied from VS Code's settings.json was ignored without a word.
  assert.equal(withDefaults({ 'inlayHints.enabled': false })['inlayHints.enabled'], false);
  assert.equal(withDefaults({ inlayHints: { enabled: false } })['inlayHints.enabled'], false);
  assert.equal(withDefaults({ 'inlayHints.enabled': 'no' })['inlayHints.enabled'], true, 'checked like any value');
});
