/**
 * The real-world corpus (test/corpus: configs and launch scripts from public repositories, each with its source and
 * licence in manifest.json) as data: every file is checked without a crash, every error-severity diagnostic has
 * a reviewed verdict (test/corpus/verdicts.json) that is not FALSE, and the `--deepspeed` uses of the launch
 * scripts are recognised, on the tune and the holdout split alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { checkCorpus, manifest } from '../../scripts/corpus/errors';
import { corpus, surveyUses } from '../../scripts/corpus/recognition';
import { parseShell } from '../../server/src/launch/shell/parser';
import { heredocConfigs } from '../../server/src/launch/heredocConfigs';

const entries = manifest();
const verdicts = (JSON.parse(readFileSync(path.join(corpus, 'verdicts.json'), 'utf8')) as { verdicts: Record<string, string> }).verdicts;

test(`the corpus (${entries.length} files): no crash, and every error is reviewed and true`, async () => {
  assert.ok(entries.length >= 300);
  for (const e of entries) assert.ok(e.licence && e.url && e.commit && (e.split === 'tune' || e.split === 'holdout'), `${e.file}: source and licence`);
  const { results, stderr } = await checkCorpus(entries);
  assert.doesNotMatch(stderr, /\n\s+at .+:\d+:\d+|TypeError|RangeError|ReferenceError/, 'a stack trace');
  assert.equal(results.length, entries.length);
  const found = new Set<string>();
  for (const r of results) for (const d of r.diagnostics) if (d.severity === 'error') found.add(`${r.entry.file} ${d.code}`);
  const unreviewed = [...found].filter((k) => !verdicts[k]);
  const wrong = [...found].filter((k) => verdicts[k]?.startsWith('FALSE'));
  const stale = Object.keys(verdicts).filter((k) => !found.has(k));
  assert.deepEqual(unreviewed, [], 'errors without a verdict: review them against the upstream source and record the verdict');
  assert.deepEqual(wrong, [], 'errors reviewed as false');
  assert.deepEqual(stale, [], 'verdicts of errors that are no longer given: drop them');
  for (const [key, verdict] of Object.entries(verdicts)) assert.match(verdict, /^(REAL|ARTEFACT)\b/, key);
});

test('at least 95% of the --deepspeed / --deepspeed_config uses that name a config are recognised, on each split', () => {
  const bySplit: Record<string, { uses: number; recognised: number; misses: string[] }> = {};
  for (const e of entries.filter((x) => x.kind === 'launch-script')) {
    const text = readFileSync(path.join(corpus, e.file), 'utf8');
    for (const use of surveyUses(e, text)) {
      // Not uses: a comment, an echo, a boolean --deepspeed whose config the training script builds itself.
      if (use.reason === 'comment' || use.reason?.startsWith('argument of echo') || use.reason?.startsWith('boolean --deepspeed')) continue;
      const split = (bySplit[e.split] ??= { uses: 0, recognised: 0, misses: [] });
      split.uses++;
      if (use.recognised) split.recognised++;
      else split.misses.push(`${e.file}:${use.line} ${use.flag}: ${use.reason}`);
    }
  }
  for (const split of ['tune', 'holdout']) {
    const s = bySplit[split];
    assert.ok(s && s.uses > 0, split);
    assert.ok(s.recognised / s.uses >= 0.95, `${split}: ${s.recognised} of ${s.uses}\n${s.misses.join('\n')}`);
  }
});

test('every DeepSpeed config a corpus script writes with a here-document is found and checked as a config', () => {
  let found = 0;
  for (const e of entries.filter((x) => x.kind === 'launch-script')) {
    const text = readFileSync(path.join(corpus, e.file), 'utf8');
    // Written with cat/tee into a file, a JSON object with DeepSpeed keys.
    const written = [...text.matchAll(/^\s*(cat|tee)\b[^\n]*<<-?\s*['"]?(\w+)['"]?[^\n]*\n\s*\{[\s\S]*?"(train_batch_size|train_micro_batch_size_per_gpu|zero_optimization)"/gm)].length;
    const configs = heredocConfigs(parseShell(text));
    assert.equal(configs.length, written, e.file);
    found += configs.length;
  }
  assert.ok(found >= 9, `${found} heredoc configs`);
});
