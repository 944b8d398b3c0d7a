import { test } from 'node:test';
import assert from 'node:assert/strict';
import { swiftRepairedJson } from '../../server/src/launch/swiftJsonRepair';

// Every accepted and rejected text below was run through json_repair 600ede6b (what ms-swift calls).
test('swiftRepairedJson: the repairs json_repair makes the same way, keeping the spacing', () => {
  assert.deepEqual(swiftRepairedJson("{'zero_optimization': {'stage': 2}}"), { json: '{"zero_optimization": {"stage": 2}}', value: { zero_optimization: { stage: 2 } } });
  assert.equal(swiftRepairedJson('{"a": [1, 2,], "b": {"c": 1,},}')?.json, '{"a": [1, 2], "b": {"c": 1}}');
  assert.equal(swiftRepairedJson("{'pin_memory': True, 'overlap_comm': False}")?.json, '{"pin_memory": true, "overlap_comm": false}');
  assert.equal(swiftRepairedJson(`{'a': "it's", 'path': '/local_nvme'}`)?.json, `{"a": "it's", "path": "/local_nvme"}`);
});

test('swiftRepairedJson: valid JSON, and text json_repair reads differently or not at all, is not repaired', () => {
  for (const text of [
    '{"a": 1}', // already JSON: nothing to repair
    'zero_2', // json_repair → '' → still fails
    "{'a': auto}", // bare word → "auto": a guess, not accepted
    "{'a': None}", // → the string "None", not null
    "{'a': '\\n'}", // → {"a": ""}: json_repair rewrites escapes its own way
    "{'b': {'a': 1 ,}, 'c': 2}", // space before a trailing comma → {"b": {"a": 1, "c": 2}}
    "{'a': { }}", // → {"a": []}
    "{''\n:1, 'a': 2}", // → {"\n:1, 'a": 2}
    "{'N' :\n  {\n  'a:b':1.5,}  ,'}':True}", // punctuation in single quotes → {"N": {"a": "b':1.5"}, "}": true}
    "[{'a': 1\n,'a': 2}]", // → two objects
    "{'a': 1,,}", // → {"a": "1,"}
  ]) {
    assert.equal(swiftRepairedJson(text), undefined, text);
  }
});
