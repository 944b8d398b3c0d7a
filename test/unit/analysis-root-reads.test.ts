/**
 * A keystroke's validation reuses the previous version's analysis (the estimate of every option) when every
 * top-level key of the config it read holds the same (training/rootReads.ts, TrainingService.analyzeConfig). Whatever
 * the edit, what the user sees must be exactly what a fresh language service says for the same text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService } from '../../server/src/languageService';
import { RootReads } from '../../server/src/training/rootReads';
import { withDefaults } from '../../server/src/settings';
import { URI } from 'vscode-uri';
import { configDocument, fixture, memoryHosts, scriptDocument, workspaceRoot } from './context-hosts';

const corpus = path.join(__dirname, '../corpus');
/** The corpus's DeepSpeed configs (none written by us), every fifth: real sections, "auto", offload, stages. */
const realConfigs = (JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { file: string; kind: string }[])
  .filter((entry) => entry.kind === 'ds-config' && entry.file.endsWith('.json'))
  .filter((_, i) => i % 5 === 1)
  .map((entry) => readFileSync(path.join(corpus, entry.file), 'utf8'));

/** Numbers on every surface: a catalog model and the GPUs, so the analysis is made in full. */
const settings = withDefaults({ model: 'Qwen/Qwen2.5-7B-Instruct', gpusPerNode: 8, gpuMemoryGiB: 80, microBatchSize: 2, sequenceLength: 4096 });
const everything = { start: { line: 0, character: 0 }, end: { line: 100000, character: 0 } };

/** What the user sees of one version: its diagnostics and inlay hints, and the hover of its stage when it has one. */
async function seen(service: ReturnType<typeof getLanguageService>, document: TextDocument): Promise<unknown> {
  const diagnostics = await service.doValidation(document, settings);
  const hints = await service.getInlayHints(document, everything, settings);
  const at = document.getText().indexOf('"stage"');
  const hover = at < 0 ? null : await service.doHover(document, document.positionAt(at + 2), settings);
  // Fixes carry the version they were made for: compare them as of version 1, a fresh document's.
  return JSON.parse(JSON.stringify({ diagnostics, hints, hover }).replaceAll(`"version":${document.version}`, '"version":1'));
}

/** What a fresh language service shows for the document's text. */
function seenFresh(document: TextDocument): Promise<unknown> {
  return seen(getLanguageService(memoryHosts({})), TextDocument.create(document.uri, 'ds-config', 1, document.getText()));
}

test('RootReads: a read key, a presence test and the key list each decide whether another root reads the same', () => {
  const shared = { stage: 2 };
  const root = { zero_optimization: shared, steps_per_print: 10, bf16: { enabled: true } };
  const { view, reads } = RootReads.track(root);
  assert.equal((view as typeof root).zero_optimization, shared);
  assert.equal('fp16' in view, false);
  assert.ok(reads.sameOn({ ...root, steps_per_print: 99 }), 'a key nobody read changed');
  assert.ok(!reads.sameOn({ ...root, zero_optimization: { stage: 2 } }), 'an object read is compared by identity');
  assert.ok(!reads.sameOn({ ...root, fp16: { enabled: true } }), 'a key tested absent is now present');
  Object.keys(view);
  assert.ok(!reads.sameOn({ ...root, steps_per_print: 99, wall_clock_breakdown: false }), 'the key list was read: a new key counts');
  assert.ok(reads.sameOn({ ...root, steps_per_print: 99 }));
  // The root last found the same is answered at once; another root is compared again.
  const next = { ...root, steps_per_print: 100 };
  assert.ok(reads.sameOn(next));
  assert.ok(reads.sameOn(next));
  assert.ok(!reads.sameOn({ ...next, zero_optimization: { stage: 2 } }), 'another root is compared, not taken for the last');
  assert.ok(reads.sameOn(next));
});

test('a keystroke in a value the estimate does not read keeps every surface as a fresh service shows it; one in the stage changes them', async () => {
  const text = '{\n  "train_micro_batch_size_per_gpu": 2,\n  "steps_per_print": 10,\n  "bf16": {"enabled": true},\n  "zero_optimization": {"stage": 3}\n}\n';
  const service = getLanguageService(memoryHosts({}));
  const document = TextDocument.create('file:///ws/ds_config.json', 'ds-config', 1, text);
  const before = await seen(service, document);
  const edit = (from: string, to: string) => {
    const at = document.getText().indexOf(from);
    TextDocument.update(document, [{ range: { start: document.positionAt(at), end: document.positionAt(at + from.length) }, text: to }], document.version + 1);
  };
  const analysisOf = async () => (await service.getDocumentAnalysis(document, settings))?.analysis;
  const first = await analysisOf();
  edit('10,', '20,');
  assert.deepEqual(await seen(service, document), before);
  assert.equal(await analysisOf(), first, 'the analysis was reused');
  edit('20,', '30,');
  assert.equal(await analysisOf(), first, 'and reused again at the next keystroke');
  edit('"stage": 3', '"stage": 2');
  const afterStage = await seen(service, document);
  assert.notEqual(await analysisOf(), first);
  assert.notDeepEqual(afterStage, before);
  assert.deepEqual(afterStage, await seenFresh(document));
  edit('"train_micro_batch_size_per_gpu": 2', '"train_micro_batch_size_per_gpu": 8');
  const afterBatch = await seen(service, document);
  assert.notDeepEqual(afterBatch, afterStage, 'the micro-batch is read from the config');
  assert.deepEqual(afterBatch, await seenFresh(document));
});

test('property: keystrokes in real configs show on every surface what a fresh language service shows', async () => {
  assert.ok(realConfigs.length >= 20, `${realConfigs.length} corpus configs`);
  // Mostly a digit typed over a digit (inside a value: the objects around it are shared), else anything over a letter
  // or digit: keys, keywords, a quote that breaks the string, a deletion (each a full parse, nothing shared).
  const keystroke = fc.oneof(
    { weight: 3, arbitrary: fc.record({ pick: fc.nat(), char: fc.constantFrom('0', '1', '2', '3', '9'), spot: fc.constant(/[0-9]/g) }) },
    { weight: 1, arbitrary: fc.record({ pick: fc.nat(), char: fc.constantFrom('0', '3', 'e', 'x', '_', '"', ''), spot: fc.constant(/[0-9A-Za-z_]/g) }) },
  );
  const counts = { reused: 0, keystrokes: 0 };
  await fc.assert(
    fc.asyncProperty(fc.nat(realConfigs.length - 1), fc.array(keystroke, { minLength: 1, maxLength: 6 }), async (which, keystrokes) => {
      const service = getLanguageService(memoryHosts({}));
      const document = TextDocument.create('file:///ws/ds_config.json', 'ds-config', 1, realConfigs[which]);
      await seen(service, document);
      const analysisOf = async () => (await service.getDocumentAnalysis(document, settings))?.analysis;
      for (const { pick, char, spot } of keystrokes) {
        const before = await analysisOf();
        const spots = [...document.getText().matchAll(spot)].map((m) => m.index!);
        if (!spots.length) return;
        const at = spots[pick % spots.length];
        TextDocument.update(document, [{ range: { start: document.positionAt(at), end: document.positionAt(at + 1) }, text: char }], document.version + 1);
        assert.deepEqual(await seen(service, document), await seenFresh(document), `after the edit, text:\n${document.getText()}`);
        counts.keystrokes++;
        if ((await analysisOf()) === before) counts.reused++;
      }
    }),
    { numRuns: 60 },
  );
  // The comparison means something only if analyses were reused; most keystrokes here change a value the estimate
  // reads (a digit of a batch or bucket size, the stage) or reparse the whole text, which shares nothing.
  assert.ok(counts.reused > counts.keystrokes / 10, JSON.stringify(counts));
});

test('with a script that launches the config, a keystroke in the config reuses its analysis; an edit of the script does not', async () => {
  const config = fixture('ds_config_zero2.json').replace('{', '{\n  "steps_per_print": 10,');
  const hosts = memoryHosts({ 'ds_config_zero2.json': config, 'train_zero2.sh': fixture('train_zero2.sh') });
  const service = getLanguageService(hosts);
  const document = configDocument('ds_config_zero2.json', config);
  const plain = withDefaults({ gpuMemoryGiB: 80 });
  const analysisOf = async () => (await service.getDocumentAnalysis(document, plain))?.analysis;
  const first = await analysisOf();
  assert.equal(first?.context.gpusPerNode?.value, 5, 'the script supplies the GPUs');
  // The script's own analysis reads the config from disk.
  assert.equal((await service.getDocumentAnalysis(scriptDocument('train_zero2.sh'), plain))?.analysis.current.stage, 2);
  // The server reports every edit of an open document as a change of its file (dependentsRefresh.ts): the script's
  // analysis read the config's text, so it must look again, but the config's own analysis read nothing of it.
  const edit = (from: string, to: string) => {
    const at = document.getText().indexOf(from);
    TextDocument.update(document, [{ range: { start: document.positionAt(at), end: document.positionAt(at + from.length) }, text: to }], document.version + 1);
    service.filesChanged([document.uri]);
  };
  edit('"steps_per_print": 10', '"steps_per_print": 20');
  assert.equal(await analysisOf(), first, 'the analysis was reused');
  edit('"stage": 2', '"stage": 3');
  const third = await analysisOf();
  assert.notEqual(third, first);
  assert.equal(third?.current.stage, 3);
  hosts.write('train_zero2.sh', fixture('train_zero2.sh').replace('NPROC_PER_NODE=5', 'NPROC_PER_NODE=4').replace('0,1,2,3,4', '0,1,2,3'));
  service.filesChanged([URI.file(path.join(workspaceRoot, 'train_zero2.sh')).toString()]);
  edit('"steps_per_print": 20', '"steps_per_print": 30');
  assert.equal((await analysisOf())?.context.gpusPerNode?.value, 4, 'a script edited on disk is read again');
});
