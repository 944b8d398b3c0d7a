import type { ShellScript, Word } from './types';

/**
 * Where loops open and close, read from the parsed commands: `for NAME in WORDS` and `for ((…))` are commands of
 * their own (the parser drops the `do` that starts the next), `while`/`until` are dropped from the condition they
 * start, and `done` is a command. `name` only for `for NAME in WORDS` and `for NAME` (over "$@", no `words`): the other
 * loops bind no name.
 */
export type LoopEvent = { kind: 'open'; name?: Word; words?: Word[] } | { kind: 'close' };

/** The loop events by command index. */
export function loopEvents(script: ShellScript): Map<number, LoopEvent> {
  const events = new Map<number, LoopEvent>();
  for (const command of script.commands) {
    const [first, name, keyword] = command.words;
    const word = first?.quoted ? undefined : first?.value;
    if (word === 'done') events.set(command.index, { kind: 'close' });
    else if (word === 'for') {
      const named = /^[A-Za-z_]\w*$/.test(name?.raw ?? '');
      // `for NAME; do` runs over "$@" (no `words`).
      events.set(command.index, named && keyword?.value === 'in' ? { kind: 'open', name, words: command.words.slice(3) } : named && !keyword ? { kind: 'open', name } : { kind: 'open' });
    }
    // Only where the parser dropped a keyword does the command start before its first word.
    else if (command.start !== first?.start && /^(do\s+)?(while|until)\s/.test(script.text.slice(command.start, command.start + 12))) events.set(command.index, { kind: 'open' });
  }
  return events;
}
