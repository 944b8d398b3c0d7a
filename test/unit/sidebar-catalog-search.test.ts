import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchCatalog } from '../../client/src/sidebar/webview/catalogSearch';
import type { CatalogEntry } from '../../server/src/protocol';
import { getLanguageService } from '../../server/src/languageService';
import { nodeFileSystem } from '../../server/src/nodeHost';

const entries: CatalogEntry[] = [
  { id: 'Qwen/Qwen2.5-7B', displayName: 'Qwen2.5-7B', totalParams: 7.6e9, aliases: ['Qwen/Qwen2.5-7B-Instruct'] },
  { id: 'meta-llama/Llama-3.1-8B', displayName: 'Llama-3.1-8B', totalParams: 8e9, aliases: ['LLM-Research/Meta-Llama-3.1-8B-Instruct'] },
  { id: 'THUDM/glm-4-9b-chat', displayName: 'glm-4-9b-chat', totalParams: 9.4e9, aliases: ['ZhipuAI/glm-4-9b-chat'] },
  { id: 'Qwen/Qwen2.5-72B', displayName: 'Qwen2.5-72B', totalParams: 72e9 },
];
const ids = (query: string) => searchCatalog(entries, query).map((m) => m.entry.id);

test('the model box finds a model by display name, hub id, alias or ModelScope id, ignoring case', () => {
  assert.deepEqual(ids('glm-4'), ['THUDM/glm-4-9b-chat']);
  assert.deepEqual(ids('thudm/'), ['THUDM/glm-4-9b-chat']);
  assert.deepEqual(ids('zhipuai'), ['THUDM/glm-4-9b-chat']);
  assert.deepEqual(ids('meta-llama-3.1-8b-instruct'), ['meta-llama/Llama-3.1-8B']);
  assert.deepEqual(ids('LLM-RESEARCH'), ['meta-llama/Llama-3.1-8B']);
  assert.deepEqual(ids('nothing like it'), []);
});

test('the name a query matched is reported, and closer names rank first', () => {
  const [first] = searchCatalog(entries, 'zhipuai/glm');
  assert.equal(first.matched, 'ZhipuAI/glm-4-9b-chat');
  assert.deepEqual(ids('qwen2.5-7'), ['Qwen/Qwen2.5-7B', 'Qwen/Qwen2.5-72B']);
  assert.deepEqual(ids('qwen2.5-72b'), ['Qwen/Qwen2.5-72B']);
  assert.equal(searchCatalog(entries, '').length, entries.length);
});

test('the server sends each catalog model with its aliases, so ModelScope ids are searchable', () => {
  const catalog = getLanguageService({ fs: nodeFileSystem }).getModelCatalog();
  assert.ok(catalog.length > 100);
  const hits = searchCatalog(catalog, 'LLM-Research/Meta-Llama-3.1-8B-Instruct');
  assert.equal(hits[0]?.entry.id, 'meta-llama/Llama-3.1-8B');
});
