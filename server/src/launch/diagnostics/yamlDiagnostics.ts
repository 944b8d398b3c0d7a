import type { Diagnostic } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import type { YamlEntry, YamlLaunch, YamlSyntaxError } from '../yaml/analyzeYaml';
import { launchDiagnostic } from './launchDiagnostic';
import { llamaFactoryZero3 } from './llamaFactoryZero3';
import type { TextOp } from '../../diagnostics/fixData';
import { replaceText } from '../../diagnostics/textOps';
import { accelerateChoices, accelerateValueForm } from '../launchers/accelerate';
import { checkDeepSpeedReference } from './deepspeedReference';
import { zeroSectionDiagnostics } from './zeroSection';
import { accelerateFsdpDiagnostics } from './accelerateFsdp';
import { english, type Translate } from '../../l10n';

/** deepspeed_config keys that `deepspeed_config_file` excludes (accelerate's DeepSpeedPlugin checks). */
const excludedYamlKeys = [
  'gradient_accumulation_steps', 'gradient_clipping', 'zero_stage', 'offload_optimizer_device', 'offload_param_device',
  'offload_optimizer_nvme_path', 'offload_param_nvme_path', 'zero3_save_16bit_model',
];

function removeEntry(ctx: SourceContext, e: YamlEntry): TextOp {
  return replaceText(ctx.document.getText(), e.pairStart, e.pairEnd, '');
}

function accelerateYaml(ctx: SourceContext, yaml: YamlLaunch): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ds = yaml.deepspeedConfig;
  for (const [key, choices] of Object.entries(accelerateChoices)) {
    const e = key === 'mixed_precision' ? undefined : ds.get(key);
    if (e && e.value !== null && e.value !== undefined && !choices.includes(accelerateValueForm(key, String(e.value)))) {
      out.push(launchDiagnostic(ctx, 'accelerate-invalid-value', e.valueStart, e.valueEnd, `${key} takes ${choices.join(' | ')}, not '${String(e.value)}'.`));
    }
  }
  // NVMe offload without a path: accelerate's plugin fills nvme_path with the string "none" (utils/dataclasses.py
  // 1245-1252, 1309-1315), so ZeRO-3 swaps into a folder named "none" under the working directory, not the NVMe drive.
  for (const what of ['optimizer', 'param'] as const) {
    const device = ds.get(`offload_${what}_device`);
    const path = ds.get(`offload_${what}_nvme_path`);
    if (String(device?.value ?? '').toLowerCase() === 'nvme' && (!path || path.value === null || String(path.value).toLowerCase() === 'none' || path.value === '')) {
      out.push(
        launchDiagnostic(
          ctx,
          'accelerate-nvme-without-path',
          device!.valueStart,
          device!.valueEnd,
          `offload_${what}_device is nvme and offload_${what}_nvme_path is not set: accelerate passes the string "none" as nvme_path, so DeepSpeed swaps into a folder named "none" under the working directory instead of the NVMe drive. Set offload_${what}_nvme_path to the drive's mount point.`,
        ),
      );
    }
  }
  const mp = yaml.top.get('mixed_precision');
  if (mp && mp.value !== null && !['no', 'fp16', 'bf16', 'fp8'].includes(String(mp.value))) {
    out.push(launchDiagnostic(ctx, 'accelerate-invalid-value', mp.valueStart, mp.valueEnd, `mixed_precision takes no | fp16 | bf16 | fp8, not '${String(mp.value)}'.`));
  }
  for (const key of ['num_processes', 'num_machines']) {
    const e = yaml.top.get(key);
    if (e && !(typeof e.value === 'number' && Number.isInteger(e.value) && e.value >= 1)) {
      out.push(launchDiagnostic(ctx, 'accelerate-invalid-value', e.valueStart, e.valueEnd, `${key} takes a whole number ≥ 1.`));
    }
  }
  if (ds.get('deepspeed_config_file')?.text) {
    const excluded = [...ds.values()].filter((e) => excludedYamlKeys.includes(e.key));
    // Any mixed_precision from the YAML counts, "no" included (launch.py sets mp_from_config_flag for it).
    if (mp && mp.value !== null) excluded.push(mp);
    for (const e of excluded) {
      out.push(
        launchDiagnostic(ctx, 'accelerate-config-file-excludes', e.keyStart, e.keyEnd, `With deepspeed_config_file, accelerate refuses '${e.key}' ("the following accelerate config variables will be ignored"); set it in the JSON config instead.`, {
          key: e.key,
          fixes: [{ id: 'remove-entry', title: `Remove '${e.key}'`, ops: [removeEntry(ctx, e)] }],
        }),
      );
    }
  }
  return out;
}

function llamaFactoryYaml(ctx: SourceContext, yaml: YamlLaunch): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ft = yaml.top.get('finetuning_type');
  if (ft?.text && !['lora', 'oft', 'freeze', 'full'].includes(ft.text)) {
    out.push(launchDiagnostic(ctx, 'llamafactory-invalid-value', ft.valueStart, ft.valueEnd, `finetuning_type takes lora | oft | freeze | full, not '${ft.text}'.`));
  }
  // The widths each on-the-fly method takes (model/model_utils/quantization.py); bitsandbytes is the default.
  const qb = yaml.top.get('quantization_bit');
  const method = String(yaml.top.get('quantization_method')?.value ?? 'bnb').toLowerCase();
  const widths: Record<string, number[]> = { bnb: [4, 8], hqq: [1, 2, 3, 4, 5, 6, 8], eetq: [8] };
  const allowed = widths[method];
  if (qb && qb.value !== null && allowed && !allowed.includes(qb.value as number)) {
    const name = method === 'bnb' ? 'bitsandbytes (the default quantization_method)' : method.toUpperCase();
    out.push(launchDiagnostic(ctx, 'llamafactory-invalid-value', qb.valueStart, qb.valueEnd, `quantization_bit ${String(qb.value)} is not a width ${name} takes: ${allowed.join(', ')}. LLaMA-Factory raises ValueError when it loads the model.`));
  }
  return out;
}

/**
 * One warning at the parser's first error, whatever follows: the YAML extension lists the details, and the
 * point here is that our checks stop there (or, when nothing before it reads, do not run).
 */
export function yamlSyntaxDiagnostic(ctx: SourceContext, error: YamlSyntaxError, partly: boolean): Diagnostic {
  const { line, character } = ctx.span(error.start, error.start).range.start;
  const what = partly ? 'could not read this file from here on, so its DeepSpeed settings after this point are not checked' : 'could not read this file, so its DeepSpeed settings are not checked';
  return launchDiagnostic(ctx, 'yaml-syntax-error', error.start, error.end, `ZeRO Lens ${what}: ${error.message} (line ${line + 1}, column ${character + 1}).`);
}

export async function yamlDiagnostics(ctx: SourceContext, hosts: Hosts, yaml: YamlLaunch, t: Translate = english): Promise<Diagnostic[]> {
  const out = yaml.kind === 'accelerate-yaml' ? [...accelerateYaml(ctx, yaml), ...accelerateFsdpDiagnostics(ctx, yaml, t)] : yaml.kind === 'llamafactory-yaml' ? llamaFactoryYaml(ctx, yaml) : [];
  const reader = yaml.kind === 'swift-yaml' ? 'ms-swift' : yaml.kind === 'accelerate-yaml' ? 'accelerate' : 'LLaMA-Factory';
  // teacher_deepspeed: only an ms-swift config sets it.
  for (const ref of [yaml.facts.deepspeed, yaml.facts.teacherDeepspeed]) {
    if (ref && ref.kind !== 'settings') out.push(...(await checkDeepSpeedReference(ctx, hosts, ref, reader)));
  }
  out.push(...(await zeroSectionDiagnostics(ctx, hosts, yaml.facts)));
  out.push(...(await llamaFactoryZero3(ctx, hosts, yaml)));
  return out;
}
