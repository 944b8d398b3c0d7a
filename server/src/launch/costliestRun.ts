import type { BranchDependent, Fact, LaunchFacts } from './facts';
import type { CommandEnvironment } from './shell/variables';

/**
 * Facts whose memory per GPU grows with the value (1) or shrinks (-1: more GPUs, nodes or sequence-parallel ranks
 * shard more). Other facts a loop gives (a model, a learning rate) cannot be ordered by memory and stay unread.
 */
const memoryGrows: { [K in keyof LaunchFacts]?: 1 | -1 } = {
  microBatch: 1,
  seqLen: 1,
  promptLength: 1,
  maxCompletionLength: 1,
  vllmMaxModelLen: 1,
  loraRank: 1,
  quantBits: 1,
  gpusPerNode: -1,
  nodes: -1,
  sequenceParallel: -1,
};

/** Readings of the command per command: two per loop name, for four loops. */
const maxRuns = 8;

/**
 * Every iteration of a `for` loop runs, so where a loop gives a fact the estimate sizes by, the facts take the
 * iteration that needs the most memory (the largest batch, the fewest GPUs): the command is read again in the runs
 * where a word the loop gives (`$BS`, `$MBS` of `MBS=$BS`) has its smallest and largest number. Sets those facts and
 * returns `dependent` with the value each word gives them.
 */
export function readCostliestRuns(facts: LaunchFacts, dependent: BranchDependent[], env: CommandEnvironment, read: (env: CommandEnvironment) => LaunchFacts): BranchDependent[] {
  const picked = new Map<keyof LaunchFacts, { fact: Fact<number>; loop: string; run: number }>();
  // A dependent word's values are in the order of the loop's runs (VariableBinding.loop).
  const runs = new Map<string, Set<number>>();
  for (const d of dependent) {
    if (!d.loop || !d.value.every((v) => /^\d+$/.test(v))) continue;
    const numbers = d.value.map(Number);
    runs.set(d.loop, (runs.get(d.loop) ?? new Set<number>()).add(numbers.indexOf(Math.min(...numbers))).add(numbers.indexOf(Math.max(...numbers))));
  }
  const tried = [...runs].flatMap(([loop, each]) => [...each].map((run) => ({ loop, run })));
  for (const { loop, run } of tried.slice(0, maxRuns)) {
    const inRun = read(env.inRun(loop, run));
    for (const [field, sign] of Object.entries(memoryGrows) as [keyof LaunchFacts, 1 | -1][]) {
      const fact = inRun[field] as Fact<number> | undefined;
      const base = facts[field] as Fact<number> | undefined;
      if (!fact || fact.isDefault || (fact.value === base?.value && fact.span.start === base.span.start)) continue;
      const best = picked.get(field);
      if (!best || (fact.value - best.fact.value) * sign > 0) picked.set(field, { fact, loop, run });
    }
  }
  for (const [field, { fact }] of picked) Object.assign(facts, { [field]: fact });
  return dependent.map((d) => {
    const use = [...picked.values()].find((p) => p.loop === d.loop && p.fact.span.start < d.span.end && d.span.start < p.fact.span.end);
    return use ? { ...d, uses: d.value[use.run] } : d;
  });
}
