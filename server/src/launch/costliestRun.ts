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

/** Readings of the command per command: two per loop or branch name, for four names. */
const maxRuns = 8;

/**
 * Every iteration of a `for` loop runs, so where a loop gives a fact the estimate sizes by, the facts take the
 * iteration that needs the most memory (the largest batch, the fewest GPUs): the command is read again in the runs
 * where a word the loop gives (`$BS`, `$MBS` of `MBS=$BS`) has its smallest and largest number. One branch of an
 * `if`/`case` the script does not decide runs, which one only running it tells: the facts take the branch that needs
 * the most memory too, so the estimate errs high (the note says so). Sets those facts and returns `dependent` with the
 * value each word gives them.
 */
export function readCostliestRuns(facts: LaunchFacts, dependent: BranchDependent[], env: CommandEnvironment, read: (env: CommandEnvironment) => LaunchFacts): BranchDependent[] {
  const picked = new Map<keyof LaunchFacts, { fact: Fact<number>; by: string; run: number }>();
  // A dependent word's values are in the order of the loop's runs (VariableBinding.loop), or of the branches.
  const runs = new Map<string, { env: (run: number) => CommandEnvironment; each: Set<number> }>();
  for (const d of dependent) {
    const key = runsKey(d);
    if (!key || !d.value.every((v) => /^\d+$/.test(v))) continue;
    const numbers = d.value.map(Number);
    const entry = runs.get(key) ?? { env: (run: number) => (d.loop ? env.inRun(d.loop, run) : env.inBranch(d.name!, d.value[run])), each: new Set<number>() };
    entry.each.add(numbers.indexOf(Math.min(...numbers))).add(numbers.indexOf(Math.max(...numbers)));
    runs.set(key, entry);
  }
  const tried = [...runs].flatMap(([by, { env: inRun, each }]) => [...each].map((run) => ({ by, run, inRun })));
  for (const { by, run, inRun } of tried.slice(0, maxRuns)) {
    const inThat = read(inRun(run));
    for (const [field, sign] of Object.entries(memoryGrows) as [keyof LaunchFacts, 1 | -1][]) {
      const fact = inThat[field] as Fact<number> | undefined;
      const base = facts[field] as Fact<number> | undefined;
      if (!fact || fact.isDefault || (fact.value === base?.value && fact.span.start === base.span.start)) continue;
      const best = picked.get(field);
      if (!best || (fact.value - best.fact.value) * sign > 0) picked.set(field, { fact, by, run });
    }
  }
  for (const [field, { fact }] of picked) Object.assign(facts, { [field]: fact });
  return dependent.map((d) => {
    const by = runsKey(d);
    const use = [...picked.values()].find((p) => p.by === by && p.fact.span.start < d.span.end && d.span.start < p.fact.span.end);
    return use ? { ...d, uses: d.value[use.run] } : d;
  });
}

/** The loop or the undecided branch a word's values come from (a loop and a variable may share a name). */
function runsKey(d: BranchDependent): string | undefined {
  return d.loop ? `for ${d.loop}` : d.name ? `if ${d.name}` : undefined;
}
