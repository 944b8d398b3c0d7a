import type { FixSpec, TextOp } from '../../diagnostics/fixData';
import { replaceText } from '../../diagnostics/textOps';
import type { Translate } from '../../l10n';
import { shellWord } from '../shell/quote';
import type { CommandEnvironment } from '../shell/variables';

/** `$NAME`, `${NAME}`, `"$NAME"`, `"${NAME}"`: a value that is one variable and nothing else. */
const onlyVariable = /^("?)\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))\1$/;

/**
 * How a fix makes a command's value say `newText`. A literal is replaced where it stands. A value that is a variable
 * (`--per_device_train_batch_size $BS`) is not overwritten: where the script sets the variable to a literal before
 * the command (`BS=4`, `export BS="4"`), that assignment is edited, its quotes kept (`variable` names it, for the
 * title); where the value is not the script's literal (the environment, `${BS:-4}`, `$(...)`) or not one value
 * (`for BS in 2 8`, an if whose branch the script does not decide), there is no edit, and `variable` says where the
 * value comes from.
 */
export type ValueEdit = { op: TextOp; variable?: string } | { op?: undefined; variable: string };

/** `env`: the command's variables; undefined where the text is no shell word (a YAML value). */
export function valueEdit(text: string, start: number, end: number, newText: string, env: CommandEnvironment | undefined): ValueEdit {
  const written = onlyVariable.exec(text.slice(start, end));
  if (!written || !env) return { op: replaceText(text, start, end, newText) };
  const name = written[2] ?? written[3];
  const binding = env.wordBinding(name);
  const value = binding?.assignment.value;
  // A name with several values here (each word of a loop, each branch of an undecided if) has no one assignment to edit.
  if (!value || value.hasExpansion || binding.branches) return { variable: name };
  const raw = text.slice(value.start, value.end);
  const quote = raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw.endsWith(raw[0]) && raw.indexOf(raw[0], 1) === raw.length - 1 ? raw[0] : undefined;
  // Inside the quotes the new value must need no escaping; else it is written as one word of its own.
  if (quote && !(quote === '"' ? /["$`\\]/ : /'/).test(newText)) return { op: replaceText(text, value.start + 1, value.end - 1, newText), variable: name };
  return { op: replaceText(text, value.start, value.end, shellWord(newText)), variable: name };
}

/** The fix's title: the caller's for a literal, `Set NAME=value` for an assignment. */
function valueEditTitle(edit: ValueEdit, newText: string, title: string, t: Translate): string {
  return edit.variable ? t('Set {0}', `${edit.variable}=${newText}`) : title;
}

/** Said after a message whose value has no fix: where the value comes from. */
function fromVariable(edit: ValueEdit, t: Translate): string {
  return edit.op ? '' : t(' It comes from {0}: change it where that is set.', `$${edit.variable}`);
}

/**
 * The "change the value" fix of a diagnostic (titled `title` for a literal, `Set NAME=value` for an assignment), and
 * the note its message ends with when there is no fix: where the value comes from ('' otherwise).
 */
export function changeValueFix(text: string, start: number, end: number, newText: string, env: CommandEnvironment | undefined, title: string, t: Translate, preferred = true): { fixes: FixSpec[]; note: string } {
  const edit = valueEdit(text, start, end, newText, env);
  return { fixes: edit.op ? [{ id: 'change-value', title: valueEditTitle(edit, newText, title, t), ops: [edit.op], preferred }] : [], note: fromVariable(edit, t) };
}
