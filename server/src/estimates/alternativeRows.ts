import { english, formatGiB, phaseLabel, type AlternativeOption, type Translate } from '../protocol';
import type { ConfigAnalysis } from '../training/analysis';
import { fitMark, optionTableHeader } from './present';
import { communicationCell, type GatherPattern } from './communication';
import { unbrokenCell as cell, cjkWordsWhole } from '../util/markdown';

/**
 * The same job under FSDP (and the Megatron layout a launch runs) beside the ZeRO table of a hover: each row's
 * per-GPU total, what it shards and what it costs in communication, so "ZeRO-3 ≈ X, FSDP FULL_SHARD ≈ Y" reads
 * side by side. In the reader's language; labels and strategy names are identifiers.
 */
export function alternativeTable(analysis: ConfigAnalysis, t: Translate = english): string[] {
  const rows = analysis.alternatives;
  if (!rows.length) return [];
  const memory = analysis.gpuMemoryBytes;
  const title = analysis.engine === 'fsdp' || analysis.engine === 'megatron' ? t('**This run and FSDP for the same job**') : t('**The same job under PyTorch FSDP**');
  const out = [
    title,
    '',
    ...optionTableHeader(memory, t),
  ];
  for (const row of rows) out.push(alternativeRow(row, t));
  out.push('', ...tradeOff(analysis, t));
  return out;
}

function alternativeRow(option: AlternativeOption, t: Translate): string {
  const { result } = option;
  const bold = (s: string) => (option.current ? `**${s}**` : s);
  const cpu = result.perCpu.total > 0 ? cell(formatGiB(result.perCpu.total)) : '—';
  const peak = result.perGpu.peakPhase ? cjkWordsWhole(phaseLabel(result.perGpu.peakPhase, t)) : '—';
  return `| ${option.current ? '▶' : ''} | ${bold(option.label)} | ${bold(cell(formatGiB(result.perGpu.total)))} | ${cell(formatGiB(result.perGpu.allocated))} | ${peak} | ${cpu} | ${fitMark(result)} | ${cell(communication(option))} | ${shards(option, t)} |`;
}

/**
 * Communication per step in Ψ, as the ZeRO rows count it. With LoRA the Trainer wraps the adapters in FSDP units of
 * their own (PEFT's fsdp_auto_wrap_policy, trainer.py `_fsdp_qlora_plugin_updates`), so only they are reduced.
 */
function communication(option: AlternativeOption): string {
  if (option.family === 'megatron') return 'TP/PP';
  return communicationCell(fsdpGathers(option.strategy), option.result.params);
}

function fsdpGathers(strategy: string | undefined): GatherPattern {
  switch (strategy) {
    case 'FULL_SHARD':
    case 'HYBRID_SHARD':
      return 'forward-and-backward';
    case 'SHARD_GRAD_OP':
    case 'HYBRID_SHARD_ZERO2':
      return 'forward';
    default:
      return 'after-step';
  }
}

function shards(option: AlternativeOption, t: Translate): string {
  if (option.family === 'megatron') return t('layers split over TP, stages over PP, experts over EP; optimizer states over data parallel');
  const moved = option.offloadParams ? t('; parameters and gradients → CPU, step on the CPU') : '';
  switch (option.strategy) {
    case 'NO_SHARD':
      return t('nothing (each GPU holds everything)') + moved;
    case 'HYBRID_SHARD':
    case 'HYBRID_SHARD_ZERO2':
      return t('optimizer states, gradients, parameters within a node') + moved;
    default:
      return t('optimizer states, gradients, parameters') + moved;
  }
}

/** Where FSDP's numbers differ from ZeRO's for this job, and what the communication buys. */
function tradeOff(analysis: ConfigAnalysis, t: Translate): string[] {
  const zero3 = analysis.options.find((o) => o.target.stage === 3 && o.target.offloadOptimizer === 'none' && o.target.offloadParam === 'none');
  const fullShard = analysis.alternatives.find((a) => a.family === 'fsdp' && a.strategy === 'FULL_SHARD' && !a.offloadParams);
  const out: string[] = [];
  if (zero3 && fullShard) {
    out.push(t('ZeRO-3 ≈ {0}/GPU, FSDP FULL_SHARD ≈ {1}/GPU.', formatGiB(zero3.result.perGpu.total), formatGiB(fullShard.result.perGpu.total)));
  }
  out.push(
    t(
      'FSDP has no DeepSpeed buckets: it gathers one wrap unit (a decoder layer) at a time, two in flight, and keeps the root unit (embeddings, output head) gathered through forward and backward. Its optimizer steps on the shards themselves (fp32 when accelerate upcasts the trainable weights under mixed precision), so there is no separate master copy. FULL_SHARD gathers the parameters again in backward, as ZeRO-3 does; SHARD_GRAD_OP keeps them from forward to backward (one gather fewer, but every unit stays gathered).',
    ),
  );
  return out;
}
