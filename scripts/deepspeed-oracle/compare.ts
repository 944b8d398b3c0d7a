/**
 * Measures ZeRO Lens against DeepSpeed's own unit tests (test/data/deepspeed-oracle/cases.json, made by extract.py).
 *
 *   node --import tsx scripts/deepspeed-oracle/compare.ts [cases.json] [--report REPORT.md] [--spawn] [--jobs N]
 *
 * Each config-decided case is written to a fresh temporary folder as ds_config.json and checked by the CLI's
 * `check` command, `check ds_config.json --format json` run in that folder: in this process by default (runCheck
 * from server/src/cli/check.ts, the code behind `zero-lens check`), or with --spawn as a child process
 * `node dist/cli.js check …` (needs `npm run build`; slower, one Node start per case). When the case has a world size, a
 * train.sh beside it (`deepspeed --num_gpus N train.py --deepspeed --deepspeed_config ds_config.json`) gives ZeRO
 * Lens the GPU count: `check` has no flag for it, and a launch script in the workspace is how the editor learns it.
 * An ACCEPT case with an error-severity diagnostic is a false error; a REJECT case without one is a miss.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCheck } from '../../server/src/cli/check';

interface Case {
  id: string;
  file: string;
  test: string;
  line: number;
  params: Record<string, unknown>;
  paramSets?: number;
  worldSize: number | null;
  expected: 'ACCEPT' | 'REJECT' | 'UNKNOWN';
  exception: string | null;
  configDecided: boolean;
  reason: string | null;
  deepspeedSource?: string;
  entry: string | null;
  addedKeys?: string[];
  pythonOnly?: boolean;
  notes?: string[];
  config: unknown;
  configText?: string;
}

interface Diagnostic {
  severity: string;
  code?: string | number;
  message: string;
  range: { start: { line: number; character: number } };
}

interface Outcome {
  kase: Case;
  errors: Diagnostic[];
  others: Diagnostic[];
  failure?: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

function argValue(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** The JSON text of a case: Python's json module (and hjson) read the bare tokens Infinity and NaN. */
function configText(kase: Case): string | undefined {
  if (kase.configText !== undefined) return kase.configText;
  let text = JSON.stringify(kase.config, null, 2);
  if (text.includes('"__python__:') || text.includes('"__unresolved__:')) return undefined;
  text = text.replace(/"__Infinity__"/g, 'Infinity').replace(/"__-Infinity__"/g, '-Infinity').replace(/"__NaN__"/g, 'NaN');
  return text + '\n';
}

function launchScript(worldSize: number): string {
  if (worldSize <= 8) return `deepspeed --num_gpus ${worldSize} train.py --deepspeed --deepspeed_config ds_config.json\n`;
  const perNode = 8;
  if (worldSize % perNode === 0) {
    return `deepspeed --num_nodes ${worldSize / perNode} --num_gpus ${perNode} train.py --deepspeed --deepspeed_config ds_config.json\n`;
  }
  return `deepspeed --num_gpus ${worldSize} train.py --deepspeed --deepspeed_config ds_config.json\n`;
}

async function runInProcess(cwd: string): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  const code = await runCheck(['ds_config.json', '--format', 'json'], { cwd, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { stdout, stderr, code };
}

function runCli(cwd: string): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, 'dist', 'cli.js'), 'check', 'ds_config.json', '--format', 'json'], { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as NodeJS.ErrnoException & { code?: unknown }).code === 'number' ? ((error as unknown as { code: number }).code) : 1) : 0;
      resolve({ stdout, stderr, code });
    });
  });
}

let spawn = false;

async function check(kase: Case, text: string): Promise<Outcome> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'zl-oracle-'));
  try {
    await fs.writeFile(path.join(dir, 'ds_config.json'), text);
    if (kase.worldSize !== null && kase.worldSize !== undefined) await fs.writeFile(path.join(dir, 'train.sh'), launchScript(kase.worldSize));
    const { stdout, stderr, code } = spawn ? await runCli(dir) : await runInProcess(dir);
    let reports: { diagnostics: Diagnostic[] }[];
    try {
      reports = JSON.parse(stdout);
    } catch {
      return { kase, errors: [], others: [], failure: `exit ${code}: ${stderr.trim() || stdout.trim()}` };
    }
    const diagnostics = reports.flatMap((r) => r.diagnostics);
    return {
      kase,
      errors: diagnostics.filter((d) => d.severity === 'error' || (d.severity as unknown) === 1),
      others: diagnostics.filter((d) => !(d.severity === 'error' || (d.severity as unknown) === 1)),
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function pool<T, R>(items: T[], jobs: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(jobs, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

const oneLine = (value: unknown): string => JSON.stringify(value);
const md = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function configKey(kase: Case): string {
  return kase.configText ?? JSON.stringify(kase.config);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const valued = new Set(['--report', '--jobs']);
  const casesPath = path.resolve(args.find((a, i) => !a.startsWith('--') && !(i > 0 && valued.has(args[i - 1]))) ?? path.join(root, 'test', 'data', 'deepspeed-oracle', 'cases.json'));
  const reportPath = path.resolve(argValue(args, '--report') ?? path.join(here, 'REPORT.md'));
  spawn = args.includes('--spawn');
  const jobs = Number(argValue(args, '--jobs') ?? (spawn ? Math.max(1, Math.min(8, os.cpus().length)) : 4));
  if (spawn) {
    try {
      await fs.access(path.join(root, 'dist', 'cli.js'));
    } catch {
      throw new Error('dist/cli.js is missing: run `npm run build` first.');
    }
  }
  const doc = JSON.parse(await fs.readFile(casesPath, 'utf8')) as { source: Record<string, unknown>; counts: Record<string, number>; cases: Case[] };
  const decided = doc.cases.filter((c) => c.configDecided && (c.expected === 'ACCEPT' || c.expected === 'REJECT'));
  const runnable: { kase: Case; text: string }[] = [];
  const notJson: Case[] = [];
  for (const kase of decided) {
    const text = configText(kase);
    if (text === undefined) notJson.push(kase);
    else runnable.push({ kase, text });
  }
  const started = Date.now();
  const outcomes = await pool(runnable, jobs, ({ kase, text }) => check(kase, text));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  const failures = outcomes.filter((o) => o.failure);
  const accepts = outcomes.filter((o) => !o.failure && o.kase.expected === 'ACCEPT');
  const rejects = outcomes.filter((o) => !o.failure && o.kase.expected === 'REJECT');
  const falseErrors = accepts.filter((o) => o.errors.length > 0);
  const misses = rejects.filter((o) => o.errors.length === 0);
  const caught = rejects.filter((o) => o.errors.length > 0);
  const distinct = (list: Outcome[]) => new Set(list.map((o) => `${o.kase.worldSize}|${configKey(o.kase)}`)).size;
  // inf / nan are written as the bare tokens Python's json module reads (Infinity, NaN): a rejection caught only by
  // json-syntax there is caught for another reason than DeepSpeed's (which reads the number, then refuses it).
  const onlySyntax = (o: Outcome) => o.errors.length > 0 && o.errors.every((d) => d.code === 'json-syntax');
  const caughtBySyntaxOnly = caught.filter((o) => o.kase.pythonOnly && onlySyntax(o));

  const lines: string[] = [];
  lines.push('# ZeRO Lens against DeepSpeed\'s unit tests');
  lines.push('');
  lines.push(`DeepSpeed ${doc.source.version ?? ''} at \`${doc.source.commit}\` (${doc.source.repository}), cases from \`test/data/deepspeed-oracle/cases.json\``);
  lines.push(`(\`scripts/deepspeed-oracle/extract.py\`), checked with \`zero-lens check ds_config.json --format json\` (${spawn ? '\`node dist/cli.js\` per case' : 'runCheck of server/src/cli/check.ts in one process'})`);
  lines.push('by `node --import tsx scripts/deepspeed-oracle/compare.ts`. Only config-decided cases are measured: an ACCEPT');
  lines.push('case is a config a passing test hands to DeepSpeed; a config-decided REJECT case is one a test expects DeepSpeed');
  lines.push('to refuse because of the config itself (see README.md).');
  lines.push('');
  lines.push('World size: `zero-lens check` has no GPU-count flag. When a case has one, a `train.sh` with');
  lines.push('`deepspeed --num_gpus N train.py --deepspeed --deepspeed_config ds_config.json` is written beside the config, which');
  lines.push('is how the editor learns the GPU count; ZeRO Lens uses it for the AutoEP and elasticity world-size checks and');
  lines.push('the batch triple (a warning under such a plain deepspeed script, which may split the GPUs with its own mpu).');
  lines.push('');
  lines.push('## Summary');
  lines.push('');
  lines.push('| | cases | distinct (config, world size) |');
  lines.push('|---|---:|---:|');
  lines.push(`| cases in cases.json | ${doc.cases.length} | |`);
  lines.push(`| config-decided ACCEPT / REJECT | ${decided.filter((c) => c.expected === 'ACCEPT').length} / ${decided.filter((c) => c.expected === 'REJECT').length} | |`);
  lines.push(`| not expressible as a JSON file (a Python object in the config) | ${notJson.length} | |`);
  lines.push(`| REJECT caught (an error-severity diagnostic) | **${caught.length} of ${rejects.length}** | ${distinct(caught)} of ${distinct(rejects)} |`);
  lines.push(`| of those caught, only by \`json-syntax\` on an Infinity/NaN token | ${caughtBySyntaxOnly.length} | ${distinct(caughtBySyntaxOnly)} |`);
  lines.push(`| REJECT missed | ${misses.length} | ${distinct(misses)} |`);
  lines.push(`| ACCEPT with an error (false errors) | **${falseErrors.length} of ${accepts.length}** | ${distinct(falseErrors)} of ${distinct(accepts)} |`);
  if (failures.length) lines.push(`| CLI failures | ${failures.length} | |`);
  lines.push('');

  lines.push('## Misses: config-decided rejections without an error');
  lines.push('');
  if (!misses.length) lines.push('None.');
  else {
    lines.push('| case | DeepSpeed raises | where | why DeepSpeed refuses | ZeRO Lens said | config |');
    lines.push('|---|---|---|---|---|---|');
    for (const o of misses) {
      const k = o.kase;
      const said = o.others.length ? o.others.map((d) => `${d.severity} \`${d.code}\``).join(', ') : 'nothing';
      lines.push(`| \`${md(k.id)}\` | ${k.exception ?? ''} | ${k.deepspeedSource ? `\`${k.deepspeedSource}\`` : '(see notes below)'} | ${md(k.reason ?? '')} | ${said} | \`${md(k.configText ?? oneLine(k.config))}\` |`);
    }
  }
  lines.push('');

  lines.push('## False errors: accepted configs with an error');
  lines.push('');
  if (!falseErrors.length) lines.push('None.');
  else {
    lines.push('| case | code | message | config |');
    lines.push('|---|---|---|---|');
    for (const o of falseErrors) {
      for (const d of o.errors) {
        lines.push(`| \`${md(o.kase.id)}\` | \`${d.code}\` | ${md(d.message)} | \`${md(o.kase.configText ?? oneLine(o.kase.config))}\` |`);
      }
    }
  }
  lines.push('');

  if (caughtBySyntaxOnly.length) {
    lines.push('## Caught only because Infinity / NaN is not JSON');
    lines.push('');
    lines.push('These configs hold float(\'inf\') or float(\'nan\'). Written to a file they are the tokens `Infinity` / `NaN`,');
    lines.push('which Python\'s json module (DeepSpeed\'s reader) accepts; DeepSpeed then refuses the value itself. ZeRO Lens');
    lines.push('stops at `json-syntax` ("JSON needs a value here"): the config is refused, but not for DeepSpeed\'s reason, and the');
    lines.push('same token in an accepted config would be a false error. Counted as caught above; as misses the score is');
    lines.push(`${caught.length - caughtBySyntaxOnly.length} of ${rejects.length}.`);
    lines.push('');
    lines.push('| case | DeepSpeed raises | where | config |');
    lines.push('|---|---|---|---|');
    for (const o of caughtBySyntaxOnly) {
      const k = o.kase;
      lines.push(`| \`${md(k.id)}\` | ${k.exception ?? ''} | ${k.deepspeedSource ? `\`${k.deepspeedSource}\`` : ''} | \`${md(oneLine(k.config))}\` |`);
    }
    lines.push('');
  }

  lines.push('## Caught rejections by error code');
  lines.push('');
  const byCode = new Map<string, number>();
  for (const o of caught) for (const code of new Set(o.errors.map((d) => String(d.code)))) byCode.set(code, (byCode.get(code) ?? 0) + 1);
  lines.push('| code | cases |');
  lines.push('|---|---:|');
  for (const [code, n] of [...byCode].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) lines.push(`| \`${code}\` | ${n} |`);
  lines.push('');

  if (notJson.length) {
    lines.push('## Not measured: configs that hold a Python object');
    lines.push('');
    for (const k of notJson) lines.push(`- \`${k.id}\` (${k.expected})`);
    lines.push('');
  }
  if (failures.length) {
    lines.push('## CLI failures');
    lines.push('');
    for (const o of failures) lines.push(`- \`${o.kase.id}\`: ${md(o.failure ?? '')}`);
    lines.push('');
  }
  const skipped = doc.cases.filter((c) => !c.configDecided);
  const why = new Map<string, number>();
  for (const c of skipped) {
    const key = c.expected === 'UNKNOWN' ? 'UNKNOWN (unresolved value, undecidable branch, skipped/xfail test, or no entry point reached)' : c.expected === 'REJECT' ? 'REJECT that depends on something besides the config' : 'ACCEPT of a partial check (a section model, parse/validate_autoep_config, compute_elastic_config)';
    why.set(key, (why.get(key) ?? 0) + 1);
  }
  lines.push('## Not measured');
  lines.push('');
  lines.push('| cases | why |');
  lines.push('|---:|---|');
  for (const [key, n] of [...why].sort((a, b) => b[1] - a[1])) lines.push(`| ${n} | ${key} |`);
  lines.push('');
  lines.push('Each such case carries its reason in cases.json (`reason`).');
  lines.push('');
  await fs.writeFile(reportPath, lines.join('\n'));

  process.stdout.write(
    `config-decided REJECT caught ${caught.length}/${rejects.length} (misses ${misses.length}); ACCEPT with errors ${falseErrors.length}/${accepts.length}; ` +
      `not JSON ${notJson.length}; CLI failures ${failures.length}; ${seconds}s\nreport: ${path.relative(root, reportPath)}\n`,
  );
  for (const o of misses) process.stdout.write(`MISS  ${o.kase.id}  ${o.kase.exception}\n`);
  for (const o of falseErrors) process.stdout.write(`FALSE ${o.kase.id}  ${o.errors.map((d) => d.code).join(',')}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(2);
});
