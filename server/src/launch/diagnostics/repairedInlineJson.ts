import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import type { SourceSpan } from '../facts';
import { isYamlDocument } from '../analysis';
import { launchDiagnostic } from './launchDiagnostic';
import type { FixSpec } from '../../diagnostics/fixData';
import { replaceText } from '../../diagnostics/textOps';
import type { Translate } from '../../l10n';

/** The shell word as written is one quoted literal holding `value`: replacing it changes nothing else. */
function isQuotedLiteral(raw: string, value: string): boolean {
  return raw === `'${value}'` || (raw === `"${value}"` && !/["$`\\]/.test(value));
}

/**
 * `json` written back as the value. In a script: in single quotes, so its double quotes stay literal (it
 * holds no `'`: a literal word has none in a JSON string, and single-quoted strings have none by then).
 * In YAML: a single-quoted scalar, one line only (a multi-line flow scalar would need the key's indentation).
 */
function quotedJson(ctx: SourceContext, span: SourceSpan, value: string, json: string): string | undefined {
  if (isYamlDocument(ctx.document)) return json.includes('\n') ? undefined : `'${json.replace(/'/g, "''")}'`;
  const raw = ctx.document.getText().slice(span.start, span.end);
  return isQuotedLiteral(raw, value) ? `'${json}'` : undefined;
}

/**
 * ms-swift reads inline JSON that `json.loads` rejects through json_repair (swift/utils/utils.py:422-432),
 * so the run works, with a warning in its log; the same value fails anywhere else.
 */
export function repairedInlineJsonDiagnostic(ctx: SourceContext, span: SourceSpan, value: string, repairedJson: string, t: Translate): Diagnostic {
  const newText = quotedJson(ctx, span, value, repairedJson);
  const fixes: FixSpec[] = newText === undefined ? [] : [{ id: 'rewrite-json', title: t('Rewrite as valid JSON'), ops: [replaceText(ctx.document.getText(), span.start, span.end, newText)], preferred: true }];
  return launchDiagnostic(
    ctx,
    'inline-deepspeed-json-repaired',
    span.start,
    span.end,
    t('This inline DeepSpeed config is not valid JSON (single quotes, a trailing comma or Python True/False). ms-swift repairs it with json_repair and logs a warning; the Hugging Face Trainer, accelerate and DeepSpeed would reject it.'),
    { repairedJson, fixes },
  );
}
