import type { Diagnostic } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import type { LaunchCommand, LauncherPart } from '../command/launchCommand';
import { lastOption, optionExtent, valueRange, type Option } from '../command/options';
import { parseHostSpec } from '../launchers/deepspeedLauncher';
import { nprocKeywords } from '../launchers/torchrun';
import { accelerateChoices, accelerateValueForm, excludedByConfigFile } from '../launchers/accelerate';
import { visibleDevices } from '../launchers/devices';
import { ScriptEditor } from '../edits/textEdits';
import { launchDiagnostic } from './launchDiagnostic';
import type { DiagnosticCode } from '../../diagnostics/registry';
import { checkDeepSpeedReference, fileNotFound, firstExisting, missingFileRaises } from './deepspeedReference';
import { joinList, type Translate } from '../../l10n';

function textOf(launch: LaunchCommand, option: Option): string | undefined {
  if (option.inline) {
    const whole = launch.env.resolve(option.word);
    return whole === undefined ? undefined : whole.slice(whole.indexOf('=') + 1);
  }
  const v = option.values[0];
  return v ? launch.env.resolve(v) : undefined;
}

function span(option: Option): { start: number; end: number } {
  return { start: option.nameStart, end: valueRange(option)?.end ?? option.nameEnd };
}

/** `deepspeed` launcher rules from runner.py. */
function deepspeedLauncherRules(ctx: SourceContext, launch: LaunchCommand, part: LauncherPart, t: Translate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const editor = new ScriptEditor(ctx);
  const opt = (...n: string[]) => lastOption(part.parsed, ...n);
  const include = opt('include');
  const exclude = opt('exclude');
  const numGpus = opt('num_gpus', 'num_accelerators');
  const numNodes = opt('num_nodes');
  const hostfile = opt('hostfile');
  const filter = include ?? exclude;
  for (const num of [numGpus, numNodes]) {
    if (!num || !filter) continue;
    const extent = optionExtent(num);
    out.push(
      launchDiagnostic(ctx, 'launcher-num-with-include', span(num).start, span(num).end, t('{0} cannot be combined with {1}: the deepspeed launcher raises "Cannot specify num_nodes/gpus with include/exclude".', num.written, filter.written), {
        fixes: [{ id: 'remove-flag', title: t('Remove {0}', num.written), ops: [editor.removeWords(extent.start, extent.end)] }],
      }),
    );
  }
  if (include && exclude) {
    const extent = optionExtent(exclude);
    out.push(
      launchDiagnostic(ctx, 'launcher-include-with-exclude', span(exclude).start, span(exclude).end, t('{0} and {1} are mutually exclusive in the deepspeed launcher.', '--include', '--exclude'), {
        fixes: [{ id: 'remove-flag', title: t('Remove {0}', exclude.written), ops: [editor.removeWords(extent.start, extent.end)] }],
      }),
    );
  }
  for (const spec of [include, exclude]) {
    const text = spec && textOf(launch, spec);
    const r = spec && valueRange(spec);
    if (spec && text !== undefined && r && !parseHostSpec(text)) {
      out.push(launchDiagnostic(ctx, 'launcher-invalid-host-spec', r.start, r.end, t("'{0}' is not a host spec: use `NAME[:SLOT[,SLOT…]][@NAME…]`, e.g. `localhost:0,1` or `worker-0@worker-1:0,2`.", text)));
    }
  }
  const nodes = numNodes ? Number(textOf(launch, numNodes)) : NaN;
  if (numNodes && nodes > 1 && !hostfile) {
    out.push(launchDiagnostic(ctx, 'launcher-multinode-without-hostfile', span(numNodes).start, span(numNodes).end, t('{0} {1} needs a hostfile ({2}, default {3}): without one the launcher runs on localhost only and fails.', '--num_nodes', nodes, '--hostfile', '/job/hostfile')));
  }
  const devices = visibleDevices(launch.env);
  // --num_nodes 0/1 does not make the launcher ignore the variable: it turns it into --include and then
  // refuses --num_nodes beside an include (runner.py, "Cannot specify num_nodes/gpus with include/exclude").
  const gpus = numGpus ? Number(textOf(launch, numGpus)) : NaN;
  if (devices && numNodes && nodes <= 1 && !filter && !hostfile && !(gpus > 0)) {
    const extent = optionExtent(numNodes);
    out.push(
      launchDiagnostic(ctx, 'launcher-num-with-include', span(numNodes).start, span(numNodes).end, t('With {0} set, the deepspeed launcher turns it into {1}, and then refuses {2}: "Cannot specify num_nodes/gpus with include/exclude". One node is the default; remove {2}.', devices.name, `--include localhost:${devices.ids.join(',')}`, numNodes.written), {
        fixes: [{ id: 'remove-flag', title: t('Remove {0}', numNodes.written), ops: [editor.removeWords(extent.start, extent.end)], preferred: true }],
      }),
    );
    return out;
  }
  const restricting = include ?? exclude ?? numGpus ?? numNodes ?? hostfile;
  if (devices && restricting) {
    const a = devices.binding.assignment;
    const own = launch.command.envPrefix.includes(a);
    out.push(
      launchDiagnostic(ctx, 'cuda-visible-devices-ignored', a.start, a.end, t('The deepspeed launcher ignores {0} when {1} is given; choose GPUs with {2} instead.', devices.name, restricting.written, `--include localhost:${devices.ids.join(',')}`), {
        fixes: own ? [{ id: 'remove-flag', title: t('Remove {0}', devices.name), ops: [editor.removeWords(a.start, a.end)] }] : [],
      }),
    );
  }
  return out;
}

function torchrunRules(ctx: SourceContext, launch: LaunchCommand, part: LauncherPart, t: Translate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const nproc = lastOption(part.parsed, 'nproc_per_node');
  const nprocText = nproc && textOf(launch, nproc);
  const r = nproc && valueRange(nproc);
  if (nproc && r && nprocText !== undefined && !/^\d+$/.test(nprocText) && !nprocKeywords.includes(nprocText)) {
    out.push(launchDiagnostic(ctx, 'torchrun-invalid-value', r.start, r.end, t("{0} takes an integer or one of {1}, not '{2}'.", '--nproc_per_node', joinList(t, nprocKeywords), nprocText)));
  }
  const devices = visibleDevices(launch.env);
  if (nproc && r && nprocText && /^\d+$/.test(nprocText) && devices && Number(nprocText) > devices.ids.length) {
    out.push(launchDiagnostic(ctx, 'nproc-exceeds-visible-devices', r.start, r.end, t('{0} {1} starts more processes than the {2} GPUs in {3}; ranks beyond {4} have no GPU.', '--nproc_per_node', nprocText, devices.ids.length, devices.name, devices.ids.length - 1)));
  }
  const nnodes = lastOption(part.parsed, 'nnodes');
  const nnodesText = nnodes && textOf(launch, nnodes);
  const nr = nnodes && valueRange(nnodes);
  if (nnodes && nr && nnodesText !== undefined && !/^\d+(:\d+)?$/.test(nnodesText)) {
    out.push(launchDiagnostic(ctx, 'torchrun-invalid-value', nr.start, nr.end, t("{0} takes N or MIN:MAX, not '{1}'.", '--nnodes', nnodesText)));
  }
  return out;
}

const accelerateIntegers = ['num_processes', 'num_machines', 'gradient_accumulation_steps', 'machine_rank'];

async function accelerateRules(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, part: LauncherPart, t: Translate): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const editor = new ScriptEditor(ctx);
  const invalid = (code: DiagnosticCode, option: Option, message: string) => {
    const r = valueRange(option) ?? { start: option.nameStart, end: option.nameEnd };
    out.push(launchDiagnostic(ctx, code, r.start, r.end, message));
  };
  for (const option of part.parsed.options) {
    const text = textOf(launch, option);
    if (text === undefined) continue;
    const choices = accelerateChoices[option.name];
    if (choices && !choices.includes(accelerateValueForm(option.name, text))) invalid('accelerate-invalid-value', option, t("{0} takes {1}, not '{2}'.", option.written, choices.join(' | '), text));
    if (accelerateIntegers.includes(option.name) && !/^\d+$/.test(text)) invalid('accelerate-invalid-value', option, t("{0} takes a whole number, not '{1}'.", option.written, text));
  }
  const configFile = lastOption(part.parsed, 'deepspeed_config_file');
  if (configFile) {
    // accelerate refuses these only from its config YAML; from the command line they fill the JSON's "auto"
    // values and are dropped where the JSON sets its own (fill_match(..., must_match=False)).
    for (const option of part.parsed.options.filter((o) => excludedByConfigFile.includes(o.name))) {
      const extent = optionExtent(option);
      out.push(
        launchDiagnostic(ctx, 'accelerate-flag-fills-auto', span(option).start, span(option).end, t('With {0}, {1} only fills a matching "auto" in the JSON config; where the JSON sets its own value, that value is used and this flag is ignored.', '--deepspeed_config_file', option.written), {
          fixes: [{ id: 'remove-flag', title: t('Remove {0}', option.written), ops: [editor.removeWords(extent.start, extent.end)] }],
        }),
      );
    }
  }
  const ref = launch.facts.deepspeed;
  if (configFile && ref && ref.via === configFile.written) out.push(...(await checkDeepSpeedReference(ctx, hosts, ref, 'accelerate', t, launch.env)));
  const yaml = lastOption(part.parsed, 'config_file');
  const facts = launch.facts.configFile;
  if (yaml && facts && !(await firstExisting(hosts.fs, facts.candidates))) {
    const r = valueRange(yaml)!;
    out.push(fileNotFound(ctx, r.start, r.end, t('accelerate config'), facts.value, facts.candidates, 'accelerate', t, {}, '', missingFileRaises['accelerate config']));
  }
  return out;
}

export async function launcherDiagnostics(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, t: Translate): Promise<Diagnostic[]> {
  const part = launch.launcher;
  if (!part) return [];
  if (part.kind === 'deepspeed') return deepspeedLauncherRules(ctx, launch, part, t);
  if (part.kind === 'torchrun') return torchrunRules(ctx, launch, part, t);
  return accelerateRules(ctx, hosts, launch, part, t);
}
