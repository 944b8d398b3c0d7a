import type { SourceContext } from '../command/context';
import type { YamlEntry } from '../yaml/analyzeYaml';
import { replaceText } from '../../diagnostics/textOps';
import type { TextOp } from '../../diagnostics/fixData';

// The text ops a launcher YAML's fixes make on one entry (key: value), from the positions the analysis records.

/** The whole entry (its line, or its pair and one comma in a flow mapping) taken out. */
export function removeEntry(ctx: SourceContext, e: YamlEntry): TextOp {
  return replaceText(ctx.document.getText(), e.pairStart, e.pairEnd, '');
}

/** The key renamed, its value kept. */
export function renameKey(ctx: SourceContext, e: YamlEntry, key: string): TextOp {
  return replaceText(ctx.document.getText(), e.keyStart, e.keyEnd, key);
}

/** The value replaced, the key kept. */
export function setValue(ctx: SourceContext, e: YamlEntry, value: string): TextOp {
  return replaceText(ctx.document.getText(), e.valueStart, e.valueEnd, value);
}

/** From the key to the end of the value, replaced by other text (another key and value). */
export function replaceEntry(ctx: SourceContext, e: YamlEntry, newText: string): TextOp {
  return replaceText(ctx.document.getText(), e.keyStart, e.valueEnd, newText);
}
