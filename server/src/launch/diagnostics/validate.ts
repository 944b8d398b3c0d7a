import type { Diagnostic } from 'vscode-languageserver-types';
import { delegating, type Hosts, type ReadResult } from '../../host';
import { unlimited, type Budget } from '../../util/budget';
import type { LaunchAnalysis } from '../analysis';
import { shellDiagnostics } from './shellDiagnostics';
import { swiftDiagnostics } from './swiftDiagnostics';
import { launcherDiagnostics } from './launcherDiagnostics';
import { yamlDiagnostics, yamlSyntaxDiagnostic } from './yamlDiagnostics';
import { checkDeepSpeedReference, fileNotFound, firstExisting, missingFileRaises } from './deepspeedReference';
import { zeroSectionDiagnostics } from './zeroSection';
import { hfSingleProcessDiagnostic } from './singleProcess';
import { heredocConfigDiagnostics } from './heredocConfig';
import { accelerateYamlAgreement, hfTrainerAgreement } from './hfTrainerAgreement';
import { acceleratePrecisionAgreement } from './acceleratePrecision';
import { translator } from '../../l10n';
import type { ZeroLensSettings } from '../../settings';
import { fsdpTrainerDiagnostics } from './fsdpTrainer';
import { fsdpLaunchDiagnostics } from './fsdpLaunch';
import { parallelSizeDiagnostics } from './parallelSizes';
import { llamaFactoryDeepSpeed } from './llamaFactoryDeepSpeed';
import { llamaFactoryZero3 } from './llamaFactoryZero3';
import { llamaFactoryQuantization } from './llamaFactoryQuantization';
import { llamaFactorySingleProcess } from './llamaFactorySingleProcess';
import { commandLineOptions, configFileOptions, envEnabled, overFile } from './llamaFactoryOptions';
import { effectiveFacts, factsOfFileIn } from '../references';
import type { DeepSpeedRelease } from '../../dsconfig/deepspeedRelease';

/**
 * The hosts for one validation run, reading each path and the workspace's JSON files once: a script may name
 * the same config in thousands of commands, and each would otherwise go to the disk (or list the workspace) again.
 */
function readingOnce(hosts: Hosts): Hosts {
  const reads = new Map<string, Promise<ReadResult>>();
  const found = new Map<string, Promise<boolean>>();
  const { workspace } = hosts;
  let jsonFiles: Promise<string[]> | undefined;
  const memo = <T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
    let hit = cache.get(key);
    if (!hit) cache.set(key, (hit = read()));
    return hit;
  };
  return {
    workspace: { folders: () => workspace.folders(), launchFiles: () => workspace.launchFiles(), jsonFiles: () => (jsonFiles ??= workspace.jsonFiles()) },
    fs: delegating(hosts.fs, {
      readFile: (path, kind) => memo(reads, `${kind}\u0000${path}`, () => hosts.fs.readFile(path, kind)),
      exists: (path) => memo(found, path, () => hosts.fs.exists(path)),
    }),
  };
}

/**
 * Every launch diagnostic of a document except memory estimates (those need the estimator). `settings`: the reader's
 * language and warnOnJsonc for here-document configs. `release`: the feature's lookup of the DeepSpeed release the
 * script runs under (`releaseLookup`, which also reads zeroLens.deepspeedVersion), asked only when a check needs it.
 */
export async function launchDiagnostics(
  analysis: LaunchAnalysis,
  disk: Hosts,
  budget: Budget = unlimited,
  settings: Partial<Pick<ZeroLensSettings, 'locale' | 'warnOnJsonc'>>,
  release: () => Promise<DeepSpeedRelease | undefined>,
): Promise<Diagnostic[]> {
  const hosts = readingOnce(disk);
  const { locale } = settings;
  const t = translator(locale);
  const { ctx } = analysis;
  if (analysis.kind === 'yaml') {
    const { yaml, syntaxError } = analysis;
    if (!syntaxError) return yaml ? yamlDiagnostics(ctx, hosts, yaml, t) : [];
    // Past the error the recovered values are the parser's guesses (an unclosed quote swallows the lines
    // after it into one value), so only what ends before it is reported.
    const checked = yaml ? await yamlDiagnostics(ctx, hosts, yaml, t) : [];
    const before = checked.filter((d) => ctx.document.offsetAt(d.range.end) < syntaxError.start);
    return [yamlSyntaxDiagnostic(ctx, syntaxError, yaml !== undefined, t), ...before];
  }
  const out = shellDiagnostics(ctx, analysis.script, t);
  out.push(...heredocConfigDiagnostics(ctx, analysis.script, analysis.commands, t, { locale, warnOnJsonc: settings.warnOnJsonc }));
  for (const launch of analysis.commands) {
    // A long script yields between commands, and stale work stops.
    await budget.checkpoint();
    out.push(...(await launcherDiagnostics(ctx, hosts, launch, t)));
    out.push(...(await zeroSectionDiagnostics(ctx, hosts, launch.facts, t)));
    out.push(...(await fsdpTrainerDiagnostics(ctx, hosts, launch, t)));
    out.push(...(await fsdpLaunchDiagnostics(ctx, hosts, launch, t)));
    out.push(...(await parallelSizeDiagnostics(ctx, hosts, launch, t)));
    const trainer = launch.trainer;
    if (!trainer) continue;
    if (trainer.kind === 'swift' || trainer.kind === 'megatron') out.push(...(await swiftDiagnostics(ctx, hosts, launch, trainer, t)));
    else if (trainer.kind === 'python') {
      // Only the script's own --deepspeed; a reference from accelerate's flags is checked with the launcher.
      const ref = launch.facts.deepspeed;
      const fromScript = ref && trainer.args.length > 0 && ref.span.start >= trainer.args[0].start;
      if (ref && fromScript) out.push(...(await checkDeepSpeedReference(ctx, hosts, ref, 'the Hugging Face Trainer', t, launch.env)));
      if (ref && fromScript) out.push(...(await hfTrainerAgreement(ctx, hosts, launch, trainer, t, release)));
      out.push(...(await accelerateYamlAgreement(ctx, hosts, launch, trainer, t)));
      out.push(...(await acceleratePrecisionAgreement(ctx, hosts, launch, trainer, t)));
      const single = hfSingleProcessDiagnostic(ctx, launch, t);
      if (single) out.push(single);
    } else if (trainer.kind === 'llamafactory') {
      const cfg = launch.facts.configFile;
      if (cfg && !(await firstExisting(hosts.fs, cfg.candidates))) {
        out.push(fileNotFound(ctx, cfg.span.start, cfg.span.end, t('LLaMA-Factory config'), cfg.value, cfg.candidates, 'LLaMA-Factory', t, {}, '', missingFileRaises['LLaMA-Factory config']));
      }
      if (launch.facts.deepspeed) out.push(...(await checkDeepSpeedReference(ctx, hosts, launch.facts.deepspeed, 'LLaMA-Factory', t, launch.env)));
      // USE_V1=1 runs LLaMA-Factory's v1 trainer (since v0.9.4), which never reads hparams/parser.py
      // (src/llamafactory/cli.py:19-22).
      const switches = (name: string) => envEnabled(launch.env, name);
      if (switches('USE_V1')) continue;
      // The command line's overrides over the YAML it runs (`train sft.yaml use_galore=true`); reported here only
      // where the command line writes a part of the case.
      const options = overFile(commandLineOptions(ctx, launch.env, trainer), cfg ? await configFileOptions(hosts, cfg.candidates) : () => undefined);
      out.push(...llamaFactoryQuantization(ctx, options, t, switches));
      // The DeepSpeed config the command line names, else the one of the YAML it runs.
      const ds = launch.facts.deepspeed ?? (cfg && (await effectiveFacts(launch.facts, factsOfFileIn(hosts.fs, hosts.workspace.folders())).catch(() => undefined))?.deepspeed);
      if (ds && trainer.subcommand === 'train') out.push(...llamaFactorySingleProcess(ctx, launch.env, ds, t));
      if (ds) out.push(...(await llamaFactoryZero3(ctx, hosts, ds, options, t)), ...(await llamaFactoryDeepSpeed(ctx, hosts, ds, options, t)));
    }
  }
  return out;
}
