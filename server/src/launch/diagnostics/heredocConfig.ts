import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { ConfigParses } from '../../dsconfig/parse';
import { validateConfig } from '../../dsconfig/validation/validate';
import { ConfigView } from '../../dsconfig/validation/configView';
import { batchWorldChecks } from '../../dsconfig/validation/rules/batch';
import { diagnosticData } from '../../diagnostics/fixData';
import { defaultSettings, type ZeroLensSettings } from '../../settings';
import type { SourceContext } from '../command/context';
import type { LaunchCommand } from '../command/launchCommand';
import type { ShellScript } from '../shell/types';
import { heredocConfigs, type HeredocConfig } from '../heredocConfigs';
import { configReader } from '../deepspeedPlugin';
import type { Translate } from '../../l10n';

/** The script's settings a here-document's checks follow, as a config file's would: its language and warnOnJsonc. */
export type HeredocSettings = Partial<Pick<ZeroLensSettings, 'locale' | 'warnOnJsonc'>>;

/**
 * A DeepSpeed config a script writes with a here-document is checked as a config, inside the script: the ds_config
 * checks run on the text as the shell writes it (variables put in), and every diagnostic is moved to where its
 * text is written in the script. Checks on text that stands for an expansion the script cannot resolve are left
 * out (the value is not known), as are whole-config checks then. When a launch of the script uses the file, its GPU
 * count checks the batch triple too. Fixes are not offered: they edit JSON by path, and this is a script.
 */
export function heredocConfigDiagnostics(ctx: SourceContext, script: ShellScript, launches: LaunchCommand[], t: Translate, settings: HeredocSettings = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const config of heredocConfigs(script)) {
    try {
      out.push(...checkOne(ctx, config, launches, t, settings));
    } catch {
      // One odd here-document must not hide the other checks.
    }
  }
  return out;
}

function checkOne(ctx: SourceContext, config: HeredocConfig, launches: LaunchCommand[], t: Translate, settings: HeredocSettings): Diagnostic[] {
  const virtual = TextDocument.create(`${ctx.uri}#heredoc-${config.heredoc.start}`, 'ds-config', 1, config.text);
  const parses = new ConfigParses();
  const locale = settings.locale;
  const found = validateConfig(parses, virtual, { ...defaultSettings, locale: locale ?? defaultSettings.locale, warnOnJsonc: settings.warnOnJsonc ?? defaultSettings.warnOnJsonc });
  const user = launches.find((l) => l.facts.deepspeed?.kind === 'file' && l.facts.deepspeed.written?.start === config.heredoc.start);
  const gpus = user?.facts.gpusPerNode?.value;
  if (gpus) {
    const world = gpus * (user.facts.nodes?.value ?? 1);
    // A plain deepspeed script may split the GPUs with model parallelism of its own: a warning then.
    found.push(...batchWorldChecks(new ConfigView(virtual, parses.parse(virtual), undefined, undefined, locale), { gpus: world, label: t('{0} GPUs (line {1})', world, user.facts.span.line) }, !configReader(user.facts)));
  }
  const mapped: Diagnostic[] = [];
  for (const d of found) {
    const start = virtual.offsetAt(d.range.start);
    const end = virtual.offsetAt(d.range.end);
    const whole = start === 0 && end >= config.text.trimEnd().length - 1;
    const touches = config.unresolved.some((u) => u.start < Math.max(end, start + 1) && start < u.end);
    if (touches || (whole && config.unresolved.length > 0)) continue;
    const at = (i: number) => config.at[Math.min(i, config.at.length - 1)] ?? config.heredoc.start;
    const from = at(start);
    const to = end > start ? at(end - 1) + 1 : from;
    const path = (d.data as { path?: unknown } | undefined)?.path;
    mapped.push({
      ...d,
      range: { start: ctx.document.positionAt(from), end: ctx.document.positionAt(Math.max(from, to)) },
      message: t('In the DeepSpeed config this script writes: {0}', String(d.message)),
      data: diagnosticData(ctx.document, { path: Array.isArray(path) ? path : [], heredoc: true }),
    });
  }
  return mapped;
}
