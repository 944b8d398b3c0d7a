import type { FileSystemHost, Hosts } from '../host';
import type { ZeroLensSettings } from '../settings';
import { parseConfigText } from '../dsconfig/parse';
import type { EstimateResult } from '../memory/types';
import { Analyzer } from '../context/analyzer';
import type { ConfigAnalysis } from '../context/analysis';
import { hasNumbers } from '../context/analysis';
import type { StageTarget } from '../context/stageSwitch';
import type { DeepSpeedReference, LaunchFacts, SourceSpan, SwiftPresetName } from './facts';
import { completedByConfigFile, throughConfigFile } from './references';
import { parsedPreset, swiftPresets } from './swiftPresets';

/** The DeepSpeed config a launch uses, as a value the estimator can read. */
export interface ReferencedConfig {
  /** Display path: the JSON file, or e.g. "zero3 (ms-swift preset)". */
  configPath: string;
  value: unknown;
  file?: { path: string; text: string };
}

/** Reads what a `--deepspeed`-style reference points at; undefined when it cannot be read. */
export async function readReferencedConfig(fs: FileSystemHost, ref: DeepSpeedReference): Promise<ReferencedConfig | undefined> {
  switch (ref.kind) {
    case 'preset':
      return { configPath: `${ref.name} (ms-swift preset)`, value: parsedPreset(ref.name) };
    case 'inline':
      return ref.json && typeof ref.json === 'object' ? { configPath: `inline ${ref.via} JSON`, value: ref.json } : undefined;
    case 'settings':
      return {
        configPath: `${ref.via} (launcher settings)`,
        value: {
          zero_optimization: { stage: ref.stage ?? 0, offload_optimizer: { device: ref.offloadOptimizer ?? 'none' }, offload_param: { device: ref.offloadParam ?? 'none' } },
          bf16: { enabled: 'auto' },
          fp16: { enabled: 'auto' },
          train_micro_batch_size_per_gpu: 'auto',
          // accelerate writes its plugin's value, "auto" unless set (utils/dataclasses.py:1229-1231, 1302-1305).
          gradient_accumulation_steps: 'auto',
        },
      };
    case 'file':
      for (const candidate of ref.candidates) {
        const text = await fs.readFile(candidate);
        if (text !== undefined) return { configPath: candidate, value: parseConfigText(text).value, file: { path: candidate, text } };
      }
      return undefined;
    default:
      return undefined;
  }
}

export function presetTarget(name: SwiftPresetName): StageTarget {
  const p = swiftPresets[name];
  return { stage: p.stage, offloadOptimizer: p.offloadOptimizer, offloadParam: p.offloadParam };
}

/**
 * Memory analyses for launch commands: the same `buildAnalysis` the ds_config hints and the sidebar use,
 * with the command itself as the training context, so every number agrees.
 */
export class LaunchEstimator {
  private readonly analyzer: Analyzer;
  private readonly analyses = new Map<string, Promise<ConfigAnalysis | undefined>>();

  constructor(private readonly hosts: Hosts) {
    this.analyzer = new Analyzer(hosts);
  }

  /** Forget model sizes and the estimates made from them: a model folder may have changed on disk. */
  invalidate(): void {
    this.analyzer.clear();
    this.analyses.clear();
  }

  /**
   * Analysis of a launch with its own config, or with `config` (a preset it could switch to). The config
   * file is read on every call (it may have been edited); the estimate is recomputed only when it changed.
   */
  async analysis(facts: LaunchFacts, settings: ZeroLensSettings, given?: ReferencedConfig): Promise<ConfigAnalysis | undefined> {
    const config = given ?? (facts.deepspeed ? await readReferencedConfig(this.hosts.fs, facts.deepspeed) : undefined);
    if (!config) return undefined;
    const key = JSON.stringify([facts, settings, config.configPath, config.file?.text ?? '']);
    let hit = this.analyses.get(key);
    if (!hit) {
      hit = this.analyzer.analyze(config, [facts], settings).catch(() => undefined);
      this.analyses.set(key, hit);
      if (this.analyses.size > 256) this.analyses.delete(this.analyses.keys().next().value as string);
    }
    return hit;
  }

  /**
   * The launch as the estimator should see it and where its estimate belongs: at the DeepSpeed value, or,
   * when the DeepSpeed settings are in the config file the command names, at that file argument. Either way
   * the config file fills in what the command line leaves out.
   */
  async effective(facts: LaunchFacts): Promise<{ facts: LaunchFacts; anchor: SourceSpan } | undefined> {
    const own = facts.deepspeed;
    const folders = this.hosts.workspace.folders();
    if (own) return own.span.start === own.span.end ? undefined : { facts: await completedByConfigFile(this.hosts.fs, facts, folders), anchor: own.span };
    const merged = await throughConfigFile(this.hosts.fs, facts, folders).catch(() => undefined);
    return merged && facts.configFile ? { facts: merged, anchor: facts.configFile.span } : undefined;
  }

  /** Per-GPU estimate of the command as written, or undefined without a model and GPU count. */
  async current(facts: LaunchFacts, settings: ZeroLensSettings): Promise<{ analysis: ConfigAnalysis; result: EstimateResult } | undefined> {
    const analysis = await this.analysis(facts, settings);
    if (!analysis || !hasNumbers(analysis)) return undefined;
    const result = analysis.estimate(analysis.current);
    return result ? { analysis, result } : undefined;
  }

  /** The same command with a different preset (for completion details and "switch to" fixes). */
  async withPreset(facts: LaunchFacts, settings: ZeroLensSettings, name: SwiftPresetName): Promise<EstimateResult | undefined> {
    const analysis = await this.analysis(facts, settings, { configPath: `${name} (ms-swift preset)`, value: parsedPreset(name) });
    return analysis && hasNumbers(analysis) ? analysis.estimate(analysis.current) : undefined;
  }
}
