/**
 * Tensor, pipeline, context and expert parallel sizes against the GPUs a launch starts and the model it trains:
 * Megatron-SWIFT's sizes as Megatron-Core checks them (Megatron-LM d98e8a64), and DeepSpeed's AutoTP size
 * (ms-swift `--deepspeed_autotp_size`, or `tensor_parallel.autotp_size` in the config a script names) as
 * DeepSpeed edaa7221 lays out its mesh. Each error links the line that raises.
 */
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { textOf, type Hosts } from '../../host';
import type { Translate } from '../../l10n';
import type { SourceContext } from '../command/context';
import type { LaunchCommand } from '../command/launchCommand';
import { factVia, type Fact, type LaunchFacts } from '../facts';
import { readReferencedConfig } from '../referencedConfig';
import { modelShape, type ModelShape } from '../parallel/modelShape';
import { launchDiagnostic } from './launchDiagnostic';
import { raises } from '../upstream';

/** The processes of the whole run, and how the script says so; undefined when the script does not say. */
function worldOf(facts: LaunchFacts, t: Translate): { size: number; via: string } | undefined {
  const perNode = facts.gpusPerNode;
  if (!perNode) return undefined;
  const nodes = facts.nodes?.value ?? 1;
  return { size: perNode.value * nodes, via: nodes > 1 ? `${factVia(perNode, t)} × ${factVia(facts.nodes!, t)}` : factVia(perNode, t) };
}

const sizeOf = (fact: Fact<number> | undefined) => fact?.value ?? 1;

/** Megatron's refusal of GPUs its TP × PP × CP groups do not tile; the script's check and `zero-lens estimate` say it alike. */
export function megatronWorldMessage(world: { size: number; via: string }, tp: number, pp: number, cp: number, t: Translate): string {
  return t('{0} GPUs ({1}) cannot be split into model-parallel groups of TP {2} × PP {3} × CP {4} = {5}: Megatron raises RuntimeError ("world_size is not divisible by {5}"). The GPU count must be a multiple of the product.', world.size, world.via, tp, pp, cp, tp * pp * cp);
}

/** DeepSpeed's AutoTP mesh that cannot hold every GPU (the script's check and `zero-lens estimate`). */
export function autotpWorldMessage(world: { size: number; via: string }, size: number, t: Translate): string {
  return t('{0} GPUs ({1}) cannot form AutoTP groups of {2}: DeepSpeed lays the ranks out as a mesh of {3} data-parallel × {2} tensor-parallel ranks (world size ÷ autotp_size), which must hold every GPU, and building the device mesh fails.', world.size, world.via, size, Math.floor(world.size / size));
}

/** Megatron-SWIFT: the model-parallel and expert grids must tile the GPUs; the model must split evenly. */
function megatron(ctx: SourceContext, facts: LaunchFacts, shape: ModelShape | undefined, t: Translate): Diagnostic[] {
  const p = facts.parallel;
  if (!p) return [];
  const out: Diagnostic[] = [];
  const [tp, pp, cp, ep, etp] = [sizeOf(p.tp), sizeOf(p.pp), sizeOf(p.cp), sizeOf(p.ep), sizeOf(p.etp)];
  const report = (code: 'parallel-sizes-gpu-mismatch' | 'parallel-size-model-mismatch', fact: Fact<number>, message: string, ref: string) =>
    out.push(launchDiagnostic(ctx, code, fact.span.start, fact.span.end, message, {}, { raises: ref }));
  const world = worldOf(facts, t);
  const anchor = p.tp ?? p.pp ?? p.cp ?? p.ep;
  if (world && anchor && world.size % (tp * pp * cp) !== 0) {
    report('parallel-sizes-gpu-mismatch', anchor, megatronWorldMessage(world, tp, pp, cp, t), raises.megatronWorld);
  }
  if (world && p.ep && world.size % (etp * ep * pp) !== 0) {
    const message = t('{0} GPUs ({1}) cannot be split into expert groups of expert TP {2} × EP {3} × PP {4} = {5}: Megatron raises RuntimeError. The GPU count must be a multiple of the product.', world.size, world.via, etp, ep, pp, etp * ep * pp);
    report('parallel-sizes-gpu-mismatch', p.ep, message, raises.megatronExpertWorld);
  }
  if (!shape) return out;
  if (p.tp && shape.heads % tp !== 0) {
    report('parallel-size-model-mismatch', p.tp, t('{0} has {1} attention heads, which TP {2} does not divide: Megatron raises ValueError ("num_attention_heads must be a multiple of tensor_model_parallel_size").', shape.id, shape.heads, tp), raises.megatronHeads);
  } else if (p.tp && shape.kvHeads % tp !== 0 && tp % shape.kvHeads !== 0) {
    report('parallel-size-model-mismatch', p.tp, t('{0} has {1} key-value heads (query groups); TP {2} must divide them or be a multiple of them: Megatron raises ValueError.', shape.id, shape.kvHeads, tp), raises.megatronQueryGroups);
  }
  if (p.pp && pp > 1 && !p.unevenPipeline && shape.layers % pp !== 0) {
    report('parallel-size-model-mismatch', p.pp, t('{0} has {1} layers, which PP {2} does not divide: Megatron stops with an AssertionError. Choose a PP that divides them, or split unevenly with `--decoder_first_pipeline_num_layers` / `--decoder_last_pipeline_num_layers`.', shape.id, shape.layers, pp), raises.megatronLayers);
  }
  if (p.ep && ep > 1 && shape.experts && shape.experts % ep !== 0) {
    report('parallel-size-model-mismatch', p.ep, t('{0} has {1} experts, which EP {2} does not divide: Megatron stops with an AssertionError.', shape.id, shape.experts, ep), raises.megatronExperts);
  }
  return out;
}

/** DeepSpeed AutoTP: `autotp_size` must tile the GPUs; past the key-value heads, ranks hold no attention shard. */
async function autotp(ctx: SourceContext, hosts: Hosts, facts: LaunchFacts, shape: ModelShape | undefined, t: Translate): Promise<Diagnostic[]> {
  let size = facts.deepspeedAutotpSize?.value;
  let span = facts.deepspeedAutotpSize?.span;
  if (size === undefined && facts.deepspeed && facts.deepspeed.kind !== 'settings' && facts.deepspeed.kind !== 'preset') {
    const config = await readReferencedConfig((p) => hosts.fs.readFile(p, 'config').then(textOf, () => undefined), facts.deepspeed).catch(() => undefined);
    const written = (config?.value as { tensor_parallel?: { autotp_size?: unknown } } | undefined)?.tensor_parallel?.autotp_size;
    if (typeof written === 'number' && Number.isInteger(written)) {
      size = written;
      span = facts.deepspeed.span;
    }
  }
  if (size === undefined || size <= 1 || !span) return [];
  const out: Diagnostic[] = [];
  const world = worldOf(facts, t);
  if (world && world.size % size !== 0) {
    out.push(launchDiagnostic(ctx, 'parallel-sizes-gpu-mismatch', span.start, span.end, autotpWorldMessage(world, size, t), {}, { raises: raises.autotpMesh }));
  }
  if (shape && size > shape.kvHeads) {
    const message = t('AutoTP size {0} is more than the {1} key-value heads of {2}: DeepSpeed warns that ranks past the head count hold no attention shard, so attention does not scale beyond {1}.', size, shape.kvHeads, shape.id);
    out.push(launchDiagnostic(ctx, 'autotp-exceeds-kv-heads', span.start, span.end, message, {}, { severity: DiagnosticSeverity.Warning, raises: raises.autotpKvHeads }));
  }
  return out;
}

export async function parallelSizeDiagnostics(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, t: Translate): Promise<Diagnostic[]> {
  const facts = launch.facts;
  const found = facts.model ? modelShape(facts.model.value) : undefined;
  // Named as the script writes it (the catalog's id may be the base model's).
  const shape = found && facts.model ? { ...found, id: facts.model.value } : undefined;
  return [...megatron(ctx, facts, shape, t), ...(await autotp(ctx, hosts, facts, shape, t))];
}
