/**
 * Survey of the real-world corpus in test/corpus: runs the shipped CLI on every file and measures how many
 * textual `--deepspeed` uses in launch scripts ZeRO Lens recognises. Writes scripts/corpus/SURVEY.md.
 *
 *   npm run build && node --import tsx scripts/corpus/survey.ts
 *
 * The build is run first when dist/cli.js is missing or older than a source file. The corpus files are test
 * input only: they are read as text, never executed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { classifyDocument } from '../../server/src/classify';
import { defaultSettings } from '../../server/src/settings';
// The reviewed verdict of every error, per file and code: the same data the corpus test asserts.
const reviewed = (JSON.parse(readFileSync(path.join(__dirname, '../../test/corpus/verdicts.json'), 'utf8')) as { verdicts: Record<string, string> }).verdicts;
const verdictOf = (code: string, file: string): string | undefined => reviewed[`${file} ${code}`];
const observations = [
  'Every file is classified by name and content as the editor does: .slurm launchers are scripts, JSON argument files are launcher configs, and other files named on the command line are reported as skipped.',
  'Every error-severity diagnostic has a reviewed verdict in test/corpus/verdicts.json (REAL or ARTEFACT); test/unit/corpus.test.ts fails on an unreviewed or FALSE one.',
];
import { corpus, repoFolder, surveyUses, type Entry, type Use } from './recognition';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');


interface CliDiagnostic {
  range: { start: { line: number; character: number } };
  severity: string;
  code: string | null;
  message: string;
}

interface CliRun {
  entry: Entry;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  diagnostics: CliDiagnostic[];
  crash?: string;
}

// ---------------------------------------------------------------- build

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function ensureBuilt(): void {
  const sources = Math.max(newestMtime(path.join(root, 'server/src')), newestMtime(path.join(root, 'schemas')), statSync(path.join(root, 'package.json')).mtimeMs);
  if (existsSync(cli) && statSync(cli).mtimeMs >= sources) return;
  process.stderr.write('dist/cli.js is missing or stale: running npm run build\n');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}

// ---------------------------------------------------------------- CLI runs


function runCli(entry: Entry): Promise<CliRun> {
  return new Promise((resolve) => {
    // Run from the file's repository folder, as a user would from a checkout: the CLI's workspace is the current
    // folder, so relative config paths resolve against the repository root and only that repository is searched.
    const child = spawn(process.execPath, [cli, 'check', path.relative(repoFolder(entry), path.join(corpus, entry.file)), '--format', 'json'], {
      cwd: repoFolder(entry),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const run: CliRun = { entry, exitCode, stdout, stderr, diagnostics: [] };
      try {
        const parsed = JSON.parse(stdout) as { file: string; diagnostics: CliDiagnostic[] }[];
        run.diagnostics = parsed.flatMap((r) => r.diagnostics);
      } catch {
        run.crash = 'stdout is not the JSON report';
      }
      // 0: no errors, 1: errors found. Anything else (2 = unreadable/usage, signals) or a stack trace is a crash.
      if (exitCode !== 0 && exitCode !== 1) run.crash = `exit code ${exitCode}${stderr ? `: ${firstLine(stderr)}` : ''}`;
      else if (/\n\s+at .+:\d+:\d+\)?/.test(stderr) || /\b(TypeError|RangeError|ReferenceError|SyntaxError)\b/.test(stderr)) run.crash = `stack trace on stderr: ${firstLine(stderr)}`;
      resolve(run);
    });
  });
}

async function runAll(entries: Entry[], parallel = 8): Promise<CliRun[]> {
  const results: CliRun[] = new Array(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const i = next++;
      results[i] = await runCli(entries[i]);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0].slice(0, 200);
}

// ---------------------------------------------------------------- report

function mdEscape(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function pct(a: number, b: number): string {
  return b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`;
}

async function main(): Promise<void> {
  ensureBuilt();
  const manifest = JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as Entry[];
  const started = Date.now();
  const runs = await runAll(manifest);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  const out: string[] = [];
  out.push('# ZeRO Lens corpus survey', '');
  out.push(
    `Generated by \`node --import tsx scripts/corpus/survey.ts\` over the ${manifest.length} files of test/corpus/manifest.json ` +
      `(dist/cli.js built ${new Date(statSync(cli).mtimeMs).toISOString()}; ${seconds} s for all CLI runs). ` +
      'Every file is checked on its own with `node dist/cli.js check <file> --format json`, run from the folder that stands for its repository (test/corpus/files/<owner>__<repo>), as a user would from a checkout: the CLI takes the current folder as its workspace, so relative config paths resolve against the repository root and only that repository\'s files are searched.',
    '',
  );

  out.push('## Summary (reviewer\'s reading)', '');
  for (const o of observations) out.push(`- ${o}`);
  out.push('');

  // Counts per kind and split.
  out.push('## Files per kind', '', '| kind | tune | holdout | total |', '| --- | ---: | ---: | ---: |');
  const kinds = [...new Set(manifest.map((e) => e.kind))].sort();
  for (const k of kinds) {
    const t = manifest.filter((e) => e.kind === k && e.split === 'tune').length;
    const h = manifest.filter((e) => e.kind === k && e.split === 'holdout').length;
    out.push(`| ${k} | ${t} | ${h} | ${t + h} |`);
  }
  out.push(`| **all** | ${manifest.filter((e) => e.split === 'tune').length} | ${manifest.filter((e) => e.split === 'holdout').length} | ${manifest.length} |`, '');
  out.push(`${new Set(manifest.map((e) => e.repo)).size} repository names (microsoft/DeepSpeedExamples and deepspeedai/DeepSpeedExamples are one repository, renamed).`, '');

  // Recognition.
  const scripts = manifest.filter((e) => e.kind === 'launch-script');
  const allUses: { entry: Entry; use: Use }[] = [];
  for (const entry of scripts) {
    const text = readFileSync(path.join(corpus, entry.file), 'utf8');
    for (const use of surveyUses(entry, text)) allUses.push({ entry, use });
  }
  const recognised = allUses.filter((u) => u.use.recognised);
  const resolved = allUses.filter((u) => u.use.resolved);
  const misses = allUses.filter((u) => !u.use.recognised);
  const notActionable = (r: string | undefined) => r === 'comment' || r === 'argument of echo (printed, not run)' || (r ?? '').startsWith('boolean --deepspeed');
  const actionable = allUses.filter((u) => !notActionable(u.use.reason));
  const scriptsWithUses = new Set(allUses.map((u) => u.entry.file)).size;
  out.push('## `--deepspeed` uses in launch scripts', '');
  out.push(
    `Textual uses (regex \`--deepspeed(?![\\w-])\`, \`--deepspeed_config(?![\\w-])\`, \`deepspeed_config_file\`) in ${scriptsWithUses} of ${scripts.length} launch scripts: **${allUses.length}**. ` +
      `A use counts as recognised when the core's launch analysis (\`launchFactsOfText\`, the facts behind the CLI's diagnostics and estimates) reports a DeepSpeed reference whose value directly follows the flag, or a DeepSpeed reference for the command the use sits in.`,
    '',
  );
  out.push('| | uses | share |', '| --- | ---: | ---: |');
  out.push(`| recognised | ${recognised.length} | ${pct(recognised.length, allUses.length)} |`);
  out.push(`| recognised with a resolved value (preset, file, inline JSON, settings) | ${resolved.length} | ${pct(resolved.length, allUses.length)} |`);
  out.push(`| not recognised | ${misses.length} | ${pct(misses.length, allUses.length)} |`);
  out.push(
    `| recognised, leaving out comments, echo and boolean --deepspeed without a config | ${actionable.filter((u) => u.use.recognised).length} of ${actionable.length} | ${pct(actionable.filter((u) => u.use.recognised).length, actionable.length)} |`,
  );
  for (const split of ['tune', 'holdout'] as const) {
    const s = allUses.filter((u) => u.entry.split === split);
    out.push(`| ${split} split: recognised | ${s.filter((u) => u.use.recognised).length} of ${s.length} | ${pct(s.filter((u) => u.use.recognised).length, s.length)} |`);
  }
  const swift = allUses.filter((u) => u.entry.repo === 'modelscope/ms-swift');
  out.push(`| modelscope/ms-swift examples: recognised | ${swift.filter((u) => u.use.recognised).length} of ${swift.length} | ${pct(swift.filter((u) => u.use.recognised).length, swift.length)} |`, '');

  const byReason = new Map<string, number>();
  for (const m of misses) {
    const key = (m.use.reason ?? '?').replace(/ [A-Za-z_]\w*=… /, ' VAR=… ').replace(/"[^"]*"\)$/, '…)');
    byReason.set(key, (byReason.get(key) ?? 0) + 1);
  }
  out.push('Misses by reason:', '', '| reason | uses |', '| --- | ---: |');
  for (const [reason, n] of [...byReason].sort((a, b) => b[1] - a[1])) out.push(`| ${mdEscape(reason)} | ${n} |`);
  out.push('', 'Every miss:', '', '| file | line | flag | reason | text |', '| --- | ---: | --- | --- | --- |');
  for (const m of misses) {
    out.push(`| ${m.entry.file.replace(/^files\//, '')} | ${m.use.line} | \`${m.use.flag}\` | ${mdEscape(m.use.reason ?? '')} | \`${mdEscape(m.use.lineText)}\` |`);
  }
  out.push('');

  // Errors grouped by code.
  const errors = runs.flatMap((r) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ run: r, d })));
  const byCode = new Map<string, { run: CliRun; d: CliDiagnostic }[]>();
  for (const e of errors) {
    const code = e.d.code ?? '(no code)';
    if (!byCode.has(code)) byCode.set(code, []);
    byCode.get(code)!.push(e);
  }
  const severities = new Map<string, number>();
  for (const r of runs) for (const d of r.diagnostics) severities.set(d.severity, (severities.get(d.severity) ?? 0) + 1);
  out.push('## Error diagnostics by code', '');
  out.push(
    `All diagnostics: ${[...severities].map(([s, n]) => `${n} ${s}`).join(', ')}. ` +
      `Errors: ${errors.length} in ${new Set(errors.map((e) => e.run.entry.file)).size} files, ${byCode.size} codes. ` +
      'The verdict says whether DeepSpeed (or the launcher that reads the file) would really fail; it is a reviewer\'s reading of the upstream source (DeepSpeed at edaa7221, accelerate, transformers, ms-swift, LLaMA-Factory), kept per file and code in test/corpus/verdicts.json.',
    '',
  );
  // Tally: a finding's verdict is its own note when that starts with a verdict word, else its code's verdict.
  const verdictWord = (text: string | undefined) => /^(REAL|FALSE|ARTEFACT|MIXED|Mostly ARTEFACT)\b/.exec(text ?? '')?.[1];
  const tally = new Map<string, number>();
  for (const { run, d } of errors) {
    const code = d.code ?? '(no code)';
    let word = verdictWord(verdictOf(code, run.entry.file)) ?? 'no verdict';
    if (word === 'Mostly ARTEFACT') word = 'ARTEFACT';
    if (word === 'MIXED') word = 'MIXED (no note for this finding)';
    tally.set(word, (tally.get(word) ?? 0) + 1);
  }
  out.push('Errors by verdict (REAL: DeepSpeed or the launcher would stop on the file as written, with current releases; FALSE: it would not, ZeRO Lens is wrong or too strict; ARTEFACT: an effect of checking the file outside its checkout — templates, configs not collected, another working directory):', '');
  out.push('| verdict | errors | files |', '| --- | ---: | ---: |');
  for (const [word, n] of [...tally].sort((a, b) => b[1] - a[1])) {
    const files = new Set(
      errors
        .filter(({ run, d }) => {
          const code = d.code ?? '(no code)';
          let w = verdictWord(verdictOf(code, run.entry.file)) ?? 'no verdict';
          if (w === 'Mostly ARTEFACT') w = 'ARTEFACT';
          if (w === 'MIXED') w = 'MIXED (no note for this finding)';
          return w === word;
        })
        .map(({ run }) => run.entry.file),
    );
    out.push(`| ${word} | ${n} | ${files.size} |`);
  }
  out.push('');
  out.push('| code | errors | files | verdict |', '| --- | ---: | ---: | --- |');
  for (const [code, list] of [...byCode].sort((a, b) => b[1].length - a[1].length)) {
    const words = [...new Set(list.map((e) => verdictWord(verdictOf(code, e.run.entry.file)) ?? 'no verdict'))].join(', ');
    out.push(`| \`${code}\` | ${list.length} | ${new Set(list.map((e) => e.run.entry.file)).size} | ${words} |`);
  }
  out.push('');
  // Per code: one row per file (a file with many errors of one code, such as a Slurm script read as JSON, would
  // otherwise flood the table); every single error follows in a collapsed list.
  for (const [code, list] of [...byCode].sort((a, b) => b[1].length - a[1].length)) {
    out.push(`### \`${code}\` (${list.length})`, '', '| file | kind | errors | first line | first message | verdict |', '| --- | --- | ---: | ---: | --- | --- |');
    const byFile = new Map<string, { run: CliRun; d: CliDiagnostic }[]>();
    for (const e of list) {
      if (!byFile.has(e.run.entry.file)) byFile.set(e.run.entry.file, []);
      byFile.get(e.run.entry.file)!.push(e);
    }
    for (const [file, items] of byFile) {
      const { run, d } = items[0];
      const override = verdictOf(code, file) ?? '(no verdict)';
      out.push(`| ${file.replace(/^files\//, '')} | ${run.entry.kind} | ${items.length} | ${d.range.start.line + 1} | ${mdEscape(d.message)} | ${mdEscape(override)} |`);
    }
    out.push('');
  }
  out.push('### Every error', '', '<details><summary>All error diagnostics, one line each (file:line code message)</summary>', '');
  for (const [code, list] of [...byCode].sort((a, b) => b[1].length - a[1].length)) {
    for (const { run, d } of list) out.push(`- ${run.entry.file.replace(/^files\//, '')}:${d.range.start.line + 1} \`${code}\` ${mdEscape(d.message)}`);
  }
  out.push('', '</details>', '');

  // Other severities, counts only.
  out.push('## Warnings, information and hints by code (counts only)', '', '| severity | code | count | files |', '| --- | --- | ---: | ---: |');
  const others = new Map<string, { n: number; files: Set<string> }>();
  for (const r of runs)
    for (const d of r.diagnostics) {
      if (d.severity === 'error') continue;
      const key = `${d.severity}\t${d.code ?? '(no code)'}`;
      if (!others.has(key)) others.set(key, { n: 0, files: new Set() });
      others.get(key)!.n++;
      others.get(key)!.files.add(r.entry.file);
    }
  for (const [key, v] of [...others].sort((a, b) => b[1].n - a[1].n)) {
    const [severity, code] = key.split('\t');
    out.push(`| ${severity} | \`${code}\` | ${v.n} | ${v.files.size} |`);
  }
  out.push('');

  // Non-config JSON: what the folder walk (classification by name and content) makes of it.
  out.push('## JSON that is not a DeepSpeed config', '');
  out.push('Named on the command line every .json is checked as a ds_config; inside a folder the CLI (and the editor) first classifies the file by name and content. What the classification says:', '');
  out.push('| file | kind | classified as | errors when named explicitly |', '| --- | --- | --- | ---: |');
  for (const r of runs.filter((x) => x.entry.kind === 'other-json' || x.entry.kind === 'swift-args-json')) {
    const text = readFileSync(path.join(corpus, r.entry.file), 'utf8');
    const doc = TextDocument.create(`file://${path.join(corpus, r.entry.file)}`, 'json', 1, text);
    const kind = classifyDocument(doc, defaultSettings) ?? 'not ours (skipped)';
    out.push(`| ${r.entry.file.replace(/^files\//, '')} | ${r.entry.kind} | ${kind} | ${r.diagnostics.filter((d) => d.severity === 'error').length} |`);
  }
  out.push('');

  // Crashes.
  const crashes = runs.filter((r) => r.crash);
  out.push('## Crashes', '');
  out.push(`Runs: ${runs.length}; exit 0: ${runs.filter((r) => r.exitCode === 0).length}; exit 1 (problems found): ${runs.filter((r) => r.exitCode === 1).length}; crashes (other exit codes, stack traces, unreadable output): ${crashes.length}.`, '');
  for (const c of crashes) out.push(`- ${c.entry.file}: ${mdEscape(c.crash ?? '')}${c.stderr ? ` — stderr: \`${mdEscape(firstLine(c.stderr))}\`` : ''}`);
  if (crashes.length) out.push('');

  writeFileSync(path.join(__dirname, 'SURVEY.md'), out.join('\n'));
  process.stdout.write(
    `${manifest.length} files; ${allUses.length} --deepspeed uses, ${recognised.length} recognised (${pct(recognised.length, allUses.length)}); ${errors.length} errors in ${byCode.size} codes; ${crashes.length} crashes. Wrote scripts/corpus/SURVEY.md\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`survey: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
