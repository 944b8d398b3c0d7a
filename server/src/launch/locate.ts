import type { LaunchAnalysis } from './analysis';
import type { LaunchCommand } from './command/launchCommand';
import type { Option } from './command/options';

/** What sits under the cursor in a script: an option's name, its value (maybe still empty), or a bare flag being typed. */
export type CursorTarget =
  | { kind: 'value'; launch: LaunchCommand; option: Option; owner: 'launcher' | 'trainer'; start: number; end: number; text: string }
  | { kind: 'name'; launch: LaunchCommand; option: Option; owner: 'launcher' | 'trainer'; start: number; end: number };

function ownersOf(launch: LaunchCommand): { owner: 'launcher' | 'trainer'; options: Option[] }[] {
  const out: { owner: 'launcher' | 'trainer'; options: Option[] }[] = [];
  if (launch.launcher) out.push({ owner: 'launcher', options: launch.launcher.parsed.options });
  if (launch.trainer) out.push({ owner: 'trainer', options: launch.trainer.parsed.options });
  return out;
}

/** Only spaces/tabs (or an escaped newline) between a flag and the cursor: the cursor is where its value goes. */
function onlyBlanks(text: string): boolean {
  return /^([ \t]|\\\r?\n)*$/.test(text);
}

export function locate(analysis: LaunchAnalysis, offset: number): CursorTarget | undefined {
  if (analysis.kind !== 'script') return undefined;
  const text = analysis.ctx.document.getText();
  for (const launch of analysis.commands) {
    if (offset < launch.command.start || offset > launch.command.end + 256) continue;
    for (const { owner, options } of ownersOf(launch)) {
      for (const option of options) {
        if (offset >= option.nameStart && offset <= option.nameEnd) return { kind: 'name', launch, option, owner, start: option.word.start, end: option.nameEnd };
        if (option.inline && offset >= option.inline.start && offset <= option.inline.end) {
          return { kind: 'value', launch, option, owner, start: option.inline.start, end: option.inline.end, text: option.inline.text };
        }
        const first = option.values[0];
        if (first && offset >= first.start && offset <= first.end) return { kind: 'value', launch, option, owner, start: first.start, end: first.end, text: first.value };
        if (!first && !option.inline && offset > option.word.end && onlyBlanks(text.slice(option.word.end, offset))) {
          return { kind: 'value', launch, option, owner, start: offset, end: offset, text: '' };
        }
      }
    }
  }
  return undefined;
}
