import type { BranchDependent } from './facts';
import type { SourceContext } from './command/context';
import type { CommandEnvironment, VariableBinding } from './shell/variables';
import type { Command, Word } from './shell/types';

/** Environment variables a launcher reads itself (swift's and torchrun's process counts, the visible GPUs). */
const launcherEnv = ['NPROC_PER_NODE', 'NNODES', 'CUDA_VISIBLE_DEVICES'];

/**
 * The command's words (and launcher variables) whose value depends on which branch of an `if`/`case` the script takes
 * (`VariableBinding.branches`), or on the iteration of a `for` loop around it: each as written
 * (`--per_device_train_batch_size $BS`), with the values of the branches or the loop's words.
 */
export function branchDependentWords(ctx: SourceContext, env: CommandEnvironment, command: Command): BranchDependent[] {
  const out = new Map<string, BranchDependent>();
  const add = (via: string, word: Word, binding: VariableBinding, name: string) => {
    if (!out.has(via)) out.set(via, { ...ctx.fact(binding.branches!, word.start, word.end, via), ...(binding.loop ? { loop: binding.loop } : { name }) });
  };
  const valuesOf = (word: Word): [VariableBinding, string] | undefined => {
    for (const part of word.parts) if (part.kind === 'var') {
      const binding = env.wordBinding(part.name);
      if (binding?.branches) return [binding, part.name];
    }
    return undefined;
  };
  command.words.forEach((word, i) => {
    const values = valuesOf(word);
    const flag = command.words[i - 1];
    if (values) add(flag && flag.value.startsWith('-') && !word.value.startsWith('-') ? `${flag.value} ${word.raw}` : word.raw, word, ...values);
  });
  for (const a of command.envPrefix) {
    const values = valuesOf(a.value);
    if (values) add(`${a.name}=${a.value.raw}`, a.value, ...values);
  }
  for (const name of launcherEnv) {
    const binding = env.envBinding(name);
    if (binding?.branches) add(name, binding.assignment.value, binding, name);
  }
  return [...out.values()];
}
