import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ZeroLensSettings } from '../settings';
import type { EstimateView } from '../protocol';
import type { EstimatedKind } from '../feature';
import { contextView } from '../training/contextView';
import type { TrainingService } from '../training/service';

/**
 * The sidebar's view of a config or launch script: the context with sources, the current option and every
 * option, from the same analysis the hint, the hover and the CLI show.
 */
export async function estimateView(training: TrainingService, document: TextDocument, kind: EstimatedKind, settings: ZeroLensSettings): Promise<EstimateView> {
  const { analysis, hasConfig } = await training.analyzeDocument(document, kind, settings);
  return {
    uri: document.uri,
    kind,
    missing: analysis.missing,
    context: contextView(analysis),
    // Under FSDP or Megatron no ZeRO option is the document's: the current run is among the alternatives.
    current: hasConfig && !analysis.alternatives.some((a) => a.current) ? analysis.current : null,
    options: hasConfig ? analysis.options.map((o) => ({ ...o.target, label: o.label, result: o.result })) : [],
    alternatives: hasConfig ? analysis.alternatives : [],
    gpuMemoryBytes: analysis.gpuMemoryBytes,
  };
}
