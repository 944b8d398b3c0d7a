import type { Fact } from './facts';
import type { SourceContext } from './command/context';
import type { CommandEnvironment } from './shell/variables';
import type { Command, Word } from './shell/types';

/** Environment variables a launcher reads itself (swift's and torchrun's process counts, the visible GPUs). */
const launcherEnv = ['NPROC_PER_NODE', 'NNODES', 'CUDA_VISIBLE_DEVICES'];

/**
 * The command's words (and launcher variables) whose value depends on which branch of an `if`/`case` the script takes
 * (`VariableBinding.branches`): each as written (`--per_device_train_batch_size $BS`), with the values of the branches.
 */
export function branchDependentWords(ctx: SourceContext, env: CommandEnvironment, command: Command): Fact<string[]>[] {
  const out = new Map<string, Fact<string[]>>();
  const add = (via: string, word: Word, values: string[]) => {
    if (!out.has(via)) out.set(via, ctx.fact(values, word.start, word.end, via));
  };
  const valuesOf = (word: Word): string[] | undefined => {
    for (const part of word.parts) if (part.kind === 'var') {
      const branches = env.wordBinding(part.name)?.branches;
      if (branches) return branches;
    }
    return undefined;
  };
  command.words.forEach((word, i) => {
    const values = valuesOf(word);
    const flag = command.words[i - 1];
    if (values) add(flag && flag.value.startsWith('-') && !word.value.startsWith('-') ? `${flag.value} ${word.raw}` : word.raw, word, values);
  });
  for (const a of command.envPrefix) {
    const values = valuesOf(a.value);
    if (values) add(`${a.name}=${a.value.raw}`, a.value, values);
  }
  for (const name of launcherEnv) {
    const binding = env.envBinding(name);
    if (binding?.branches) add(name, binding.assignment.value, binding.branches);
  }
  return [...out.values()];
}
