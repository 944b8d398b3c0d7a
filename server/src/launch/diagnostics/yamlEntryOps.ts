import type { SourceContext } from '../command/context';
import type { YamlEntry } from '../yaml/analyzeYaml';
import { replaceText } from '../../diagnostics/textOps';
import type { TextOp } from '../../diagnostics/fixData';

// The text ops a launcher YAML's fixes make on one entry (key: value), from the positions the analysis records.

/** The whole entry (its line, or its pair and one comma in a flow mapping) taken out. */
export function removeEntry(ctx: SourceContext, e: YamlEntry): TextOp {
  const text = ctx.document.getText();
  // The file's last line without a line break after it: the break before it goes instead, so the file still
  // ends without one.
  if (e.pairEnd === text.length && !text.endsWith('\n') && e.pairStart > 0 && text[e.pairStart - 1] === '\n') {
    return replaceText(text, e.pairStart - (text[e.pairStart - 2] === '\r' ? 2 : 1), e.pairEnd, '');
  }
  return replaceText(text, e.pairStart, e.pairEnd, '');
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
