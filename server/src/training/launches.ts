import type { DeepSpeedReference, LaunchFacts, SourceSpan } from '../launch/facts';
import { effectiveFacts, type FactsOfFile } from '../launch/references';

/**
 * A launch command as it runs (completed by the config file it names) and where its estimate belongs: at
 * the DeepSpeed value, or, when the DeepSpeed settings are in the config file the command names, at that
 * file argument.
 */
export interface EffectiveLaunch {
  /** The command as written in the document. */
  written: LaunchFacts;
  /** With the facts of the config file it names merged in. */
  facts: LaunchFacts;
  deepspeed: DeepSpeedReference;
  anchor: SourceSpan;
}

/** The effective launch of a written command; undefined when it launches no DeepSpeed config. */
export async function effectiveLaunch(written: LaunchFacts, factsOfFile: FactsOfFile): Promise<EffectiveLaunch | undefined> {
  const own = written.deepspeed;
  // A value the parser could not place (an empty span) has nowhere for a hint or hover to go.
  if (own && own.span.start === own.span.end) return undefined;
  const facts = await effectiveFacts(written, factsOfFile);
  const deepspeed = facts?.deepspeed;
  if (!facts || !deepspeed) return undefined;
  const anchor = own ? own.span : (written.configFile?.span ?? written.argsFile?.span);
  return anchor ? { written, facts, deepspeed, anchor } : undefined;
}

/** A launch that trains with FSDP or Megatron instead of DeepSpeed, and where its estimate belongs. */
export interface ParallelLaunch {
  written: LaunchFacts;
  /** With the facts of the config file it names merged in. */
  facts: LaunchFacts;
  anchor: SourceSpan;
}
