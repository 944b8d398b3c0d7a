import { languageSettings, resolveLocale, type LanguageSetting, type Locale } from './l10n';

/**
 * Settings, as the client reads them per resource (`zeroLens.*`, scope `resource`).
 * Never cached globally on the server: every request passes the settings of its document.
 */
export interface ZeroLensSettings {
  /** Extra globs (matched against the path) of files that are DeepSpeed configs. */
  configFiles: string[];
  /** Validate ds_config files and launch scripts. */
  validate: boolean;
  /** Warn about comments and trailing commas, which the HF Trainer and accelerate (json.load) reject. */
  warnOnJsonc: boolean;
  inlayHints: {
    /** Memory estimate after `"stage"` and after `--deepspeed`. */
    enabled: boolean;
  };
  /** Training context defaults; a launch script that references the config wins over these. */
  model?: string;
  gpusPerNode?: number;
  nodes?: number;
  gpuMemoryGiB?: number;
  sequenceLength?: number;
  microBatchSize?: number;
  gradientCheckpointing?: boolean;
  loraRank?: number;
  dtype?: 'bf16' | 'fp16' | 'fp32';
  /** GPU memory held by the CUDA context and kernels, in GiB. */
  cudaContextGiB: number;
  /** Share of GPU memory lost to allocator fragmentation, 0..1. */
  fragmentation: number;
  /** `zeroLens.language`: the language of ZeRO Lens's texts; `auto` follows the editor's display language. */
  language: LanguageSetting;
  /**
   * The language every text of a request is written in: `language` unless it is `auto`, else the display
   * language the edge passed to `withDefaults` (the editor's `InitializeParams.locale`, the CLI's environment).
   */
  locale: Locale;
}

export const defaultSettings: ZeroLensSettings = {
  configFiles: [],
  validate: true,
  warnOnJsonc: true,
  inlayHints: { enabled: true },
  cudaContextGiB: 1,
  fragmentation: 0.1,
  language: 'auto',
  locale: 'en',
};

/**
 * Fills what a client left out, so the core never sees a partial object. `displayLocale`: the editor's display
 * language (or the terminal's), which `language: "auto"` follows; an explicit `locale` in `partial` is ignored.
 */
export function withDefaults(partial: unknown, displayLocale?: string): ZeroLensSettings {
  const value = (partial && typeof partial === 'object' ? partial : {}) as Partial<ZeroLensSettings>;
  const language = languageSettings.includes(value.language as LanguageSetting) ? (value.language as LanguageSetting) : 'auto';
  return {
    ...defaultSettings,
    ...value,
    configFiles: Array.isArray(value.configFiles) ? value.configFiles.filter((g) => typeof g === 'string') : [],
    inlayHints: { ...defaultSettings.inlayHints, ...(value.inlayHints ?? {}) },
    language,
    locale: resolveLocale([language], [displayLocale]),
  };
}
