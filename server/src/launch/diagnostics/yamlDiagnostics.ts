import type { Diagnostic } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import type { YamlLaunch, YamlSyntaxError } from '../yaml/analyzeYaml';
import { launchDiagnostic } from './launchDiagnostic';
import { LLAMA_FACTORY } from '../../diagnostics/upstream';
import { llamaFactoryZero3 } from './llamaFactoryZero3';
import { llamaFactoryDeepSpeed } from './llamaFactoryDeepSpeed';
import { yamlOptions } from './llamaFactoryOptions';
import { llamaFactoryQuantization } from './llamaFactoryQuantization';
import { accelerateChoices, accelerateValueForm } from '../launchers/accelerate';
import { checkDeepSpeedReference } from './deepspeedReference';
import { zeroSectionDiagnostics } from './zeroSection';
import { accelerateFsdpDiagnostics } from './accelerateFsdp';
import { accelerateTopKeyDiagnostics } from './accelerateTopKeys';
import { removeEntry, setValue } from './yamlEntryOps';
import { english, joinList, type Translate } from '../../l10n';

/** deepspeed_config keys that `deepspeed_config_file` excludes (accelerate's DeepSpeedPlugin checks). */
const excludedYamlKeys = [
  'gradient_accumulation_steps', 'gradient_clipping', 'zero_stage', 'offload_optimizer_device', 'offload_param_device',
  'offload_optimizer_nvme_path', 'offload_param_nvme_path', 'zero3_save_16bit_model',
];

// l10n-ignore: accelerate's own warning, as its log shows it
const acceleratesWords = '"the following accelerate config variables will be ignored"';

function accelerateYaml(ctx: SourceContext, yaml: YamlLaunch, t: Translate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ds = yaml.deepspeedConfig;
  for (const [key, choices] of Object.entries(accelerateChoices)) {
    const e = key === 'mixed_precision' ? undefined : ds.get(key);
    if (e && e.value !== null && e.value !== undefined && !choices.includes(accelerateValueForm(key, String(e.value)))) {
      out.push(launchDiagnostic(ctx, 'accelerate-invalid-value', e.valueStart, e.valueEnd, t("{0} takes {1}, not '{2}'.", key, choices.join(' | '), String(e.value))));
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
          t('{0} is nvme and {1} is not set: accelerate passes the string "none" as nvme_path, so DeepSpeed swaps into a folder named "none" under the working directory instead of the NVMe drive. Set {1} to the drive\'s mount point.', `offload_${what}_device`, `offload_${what}_nvme_path`),
        ),
      );
    }
  }
  const mp = yaml.top.get('mixed_precision');
  if (mp?.value === false) {
    // yaml.safe_load reads an unquoted `no` as False, and launch.py keeps it: args.mixed_precision.lower() raises.
    const written = ctx.document.getText().slice(mp.valueStart, mp.valueEnd);
    const quoted = "'no'";
    out.push(
      launchDiagnostic(ctx, 'accelerate-invalid-value', mp.valueStart, mp.valueEnd, t('Unquoted, mixed_precision: {0} is the boolean False to the YAML reader accelerate uses (yaml.safe_load), and accelerate launch fails on it (AttributeError: \'bool\' object has no attribute \'lower\'). Write {1}.', written, quoted), {
        fixes: [{ id: 'change-value', title: t('Change to {0}', quoted), ops: [setValue(ctx, mp, quoted)], preferred: true }],
      }),
    );
  } else if (mp && mp.value !== null && !['no', 'fp16', 'bf16', 'fp8'].includes(String(mp.value))) {
    out.push(launchDiagnostic(ctx, 'accelerate-invalid-value', mp.valueStart, mp.valueEnd, t("{0} takes {1}, not '{2}'.", 'mixed_precision', 'no | fp16 | bf16 | fp8', String(mp.value))));
  }
  for (const key of ['num_processes', 'num_machines']) {
    const e = yaml.top.get(key);
    if (e && !(typeof e.value === 'number' && Number.isInteger(e.value) && e.value >= 1)) {
      out.push(launchDiagnostic(ctx, 'accelerate-invalid-value', e.valueStart, e.valueEnd, t('{0} takes a whole number ≥ 1.', key)));
    }
  }
  if (ds.get('deepspeed_config_file')?.text) {
    const excluded = [...ds.values()].filter((e) => excludedYamlKeys.includes(e.key));
    // Any mixed_precision from the YAML counts, "no" included (launch.py sets mp_from_config_flag for it).
    if (mp && mp.value !== null) excluded.push(mp);
    for (const e of excluded) {
      out.push(
        launchDiagnostic(ctx, 'accelerate-config-file-excludes', e.keyStart, e.keyEnd, t("With {0}, accelerate refuses '{1}' ({2}); set it in the JSON config instead.", 'deepspeed_config_file', e.key, acceleratesWords), {
          key: e.key,
          fixes: [{ id: 'remove-entry', title: t("Remove '{0}'", e.key), ops: [removeEntry(ctx, e)] }],
        }),
      );
    }
  }
  return out;
}

/** Where quantization.py refuses each method's other widths (the registry cites finetuning_type's choices). */
const quantizationWidthLines: Record<string, string> = { bnb: '#L191-192', hqq: '#L207-208', eetq: '#L219-220' };

function llamaFactoryYaml(ctx: SourceContext, yaml: YamlLaunch, t: Translate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ft = yaml.top.get('finetuning_type');
  if (ft?.text && !['lora', 'oft', 'freeze', 'full'].includes(ft.text)) {
    out.push(launchDiagnostic(ctx, 'llamafactory-invalid-value', ft.valueStart, ft.valueEnd, t("{0} takes {1}, not '{2}'.", 'finetuning_type', 'lora | oft | freeze | full', ft.text)));
  }
  // The widths each on-the-fly method takes (model/model_utils/quantization.py); bitsandbytes is the default.
  const qb = yaml.top.get('quantization_bit');
  const method = String(yaml.top.get('quantization_method')?.value ?? 'bnb').toLowerCase();
  const widths: Record<string, number[]> = { bnb: [4, 8], hqq: [1, 2, 3, 4, 5, 6, 8], eetq: [8] };
  const allowed = widths[method];
  if (qb && qb.value !== null && allowed && !allowed.includes(qb.value as number)) {
    const name = method === 'bnb' ? t('bitsandbytes (the default {0})', 'quantization_method') : method.toUpperCase();
    const raises = `${LLAMA_FACTORY}:src/llamafactory/model/model_utils/quantization.py${quantizationWidthLines[method]}`;
    out.push(launchDiagnostic(ctx, 'llamafactory-invalid-value', qb.valueStart, qb.valueEnd, t('{0} {1} is not a width {2} takes: {3}. LLaMA-Factory raises ValueError when it loads the model.', 'quantization_bit', String(qb.value), name, joinList(t, allowed)), {}, { raises }));
  }
  return out;
}

/**
 * One warning at the parser's first error, whatever follows: the YAML extension lists the details, and the
 * point here is that our checks stop there (or, when nothing before it reads, do not run).
 */
export function yamlSyntaxDiagnostic(ctx: SourceContext, error: YamlSyntaxError, partly: boolean, t: Translate): Diagnostic {
  const { line, character } = ctx.span(error.start, error.start).range.start;
  const detail = error.multipleDocuments ? t('a second YAML document starts here, and the file may hold only one') : error.message;
  const message = partly
    ? t('ZeRO Lens could not read this file from here on, so its DeepSpeed settings after this point are not checked: {0} (line {1}, column {2}).', detail, line + 1, character + 1)
    : t('ZeRO Lens could not read this file, so its DeepSpeed settings are not checked: {0} (line {1}, column {2}).', detail, line + 1, character + 1);
  return launchDiagnostic(ctx, 'yaml-syntax-error', error.start, error.end, message);
}

export async function yamlDiagnostics(ctx: SourceContext, hosts: Hosts, yaml: YamlLaunch, t: Translate = english): Promise<Diagnostic[]> {
  const out = yaml.kind === 'accelerate-yaml' ? [...accelerateYaml(ctx, yaml, t), ...accelerateTopKeyDiagnostics(ctx, yaml, t), ...accelerateFsdpDiagnostics(ctx, yaml, t)] : yaml.kind === 'llamafactory-yaml' ? llamaFactoryYaml(ctx, yaml, t) : [];
  const reader = yaml.kind === 'swift-yaml' ? 'ms-swift' : yaml.kind === 'accelerate-yaml' ? 'accelerate' : 'LLaMA-Factory';
  // teacher_deepspeed: only an ms-swift config sets it.
  for (const ref of [yaml.facts.deepspeed, yaml.facts.teacherDeepspeed]) {
    if (ref && ref.kind !== 'settings') out.push(...(await checkDeepSpeedReference(ctx, hosts, ref, reader, t)));
  }
  out.push(...(await zeroSectionDiagnostics(ctx, hosts, yaml.facts, t)));
  if (yaml.kind !== 'llamafactory-yaml') return out;
  const options = yamlOptions(ctx, yaml);
  out.push(...llamaFactoryQuantization(ctx, options, t));
  const ds = yaml.facts.deepspeed;
  if (ds) out.push(...(await llamaFactoryZero3(ctx, hosts, ds, options, t)), ...(await llamaFactoryDeepSpeed(ctx, hosts, ds, options, t)));
  return out;
}
