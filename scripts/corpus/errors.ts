/**
 * The CLI's diagnostics for every corpus file, in this process: `zero-lens check <files…> --format json` run once per
 * repository from its folder (test/corpus/files/<owner>__<repo>), as a user would from a checkout. Shared by the
 * corpus test and survey.ts.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCheck } from '../../server/src/cli/check';
import { corpus, repoFolder, type Entry } from './recognition';

export interface FileResult {
  entry: Entry;
  skipped?: string;
  diagnostics: { range: { start: { line: number; character: number } }; severity: string; code: string | null; message: string }[];
}

export function manifest(): Entry[] {
  return JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as Entry[];
}

export async function checkCorpus(entries: Entry[] = manifest()): Promise<{ results: FileResult[]; stderr: string }> {
  const byRepo = new Map<string, Entry[]>();
  for (const e of entries) byRepo.set(repoFolder(e), [...(byRepo.get(repoFolder(e)) ?? []), e]);
  const results: FileResult[] = [];
  let stderr = '';
  for (const [folder, list] of byRepo) {
    let out = '';
    const files = list.map((e) => path.relative(folder, path.join(corpus, e.file)));
    await runCheck([...files, '--format', 'json'], { cwd: folder, stdout: (t) => (out += t), stderr: (t) => (stderr += t) });
    const reports = JSON.parse(out) as { file: string; skipped?: string; diagnostics: FileResult['diagnostics'] }[];
    for (const e of list) {
      const report = reports.find((r) => r.file === path.relative(folder, path.join(corpus, e.file)));
      results.push({ entry: e, skipped: report?.skipped, diagnostics: report?.diagnostics ?? [] });
    }
  }
  return { results, stderr };
}

if (require.main === module) {
  const started = Date.now();
  checkCorpus().then(({ results, stderr }) => {
    for (const r of results) for (const d of r.diagnostics.filter((x) => x.severity === 'error')) console.log(`${r.entry.file}:${d.range.start.line + 1} ${d.code} ${d.message.slice(0, 160)}`);
    console.log('skipped:', results.filter((r) => r.skipped).map((r) => r.entry.file).join(' '));
    console.error(stderr.slice(0, 2000), `${(Date.now() - started) / 1000}s`);
  });
}
