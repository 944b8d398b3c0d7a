import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

// VS Code gives a number setting without a default the value 0 (configurationRegistry: getDefaultValue('number')),
// which for these two overrides would mean "no CUDA context" and "no allocator cache". Unset must stay unset: the
// modelled defaults apply (docs/memory-model.md §8).
test('the cudaContextGiB and fragmentation overrides default to null, not to the 0 VS Code would fill in', () => {
  const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));
  const properties = manifest.contributes.configuration.properties;
  for (const name of ['zeroLens.cudaContextGiB', 'zeroLens.fragmentation']) {
    assert.equal(properties[name].default, null, `${name} default`);
    assert.deepEqual(properties[name].type, ['number', 'null'], `${name} type`);
  }
});
