import type { Hosts } from '../host';
import type { ZeroLensSettings } from '../settings';
import { resolveModel } from '../memory/resolveModel';
import type { ModelInfo } from '../memory/types';
import type { LaunchFacts } from '../launch/facts';
import type { ConfigAnalysis } from './analysis';
import { buildAnalysis } from './buildAnalysis';

/**
 * `buildAnalysis` with a cached model resolver, for the ds_config side (ContextEngine) and the launch side
 * (LaunchEstimator) alike: each model spec is sized once per folder until `clear()` (file watcher events),
 * so hints never read model folders on a keystroke and both sides show the same numbers.
 */
export class Analyzer {
  private readonly models = new Map<string, Promise<ModelInfo | undefined>>();

  constructor(private readonly hosts: Hosts) {}

  /** Forget model sizes read from disk: a config.json may have changed. */
  clear(): void {
    this.models.clear();
  }

  /** The analysis of `config` (a parsed ds_config or preset, with its display path) in the context of `scripts`. */
  analyze(config: { configPath: string; value: unknown }, scripts: LaunchFacts[], settings: ZeroLensSettings): Promise<ConfigAnalysis> {
    return buildAnalysis({ configPath: config.configPath, config: config.value, scripts, settings, resolveModel: (spec, baseDir) => this.model(spec, baseDir) });
  }

  private model(spec: string, baseDir: string | undefined): Promise<ModelInfo | undefined> {
    const key = `${baseDir ?? ''}\u0000${spec}`;
    let info = this.models.get(key);
    if (!info) {
      info = resolveModel(spec, this.hosts.fs, baseDir ?? this.hosts.workspace.folders()[0]).catch(() => undefined);
      this.models.set(key, info);
    }
    return info;
  }
}
