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
  /** Override of the modelled CUDA context and kernels, in GiB (unset: the measured default). */
  cudaContextGiB?: number;
  /** Override of the modelled allocator cache: reserved = allocated × (1 + fragmentation), 0..1 (unset: modelled). */
  fragmentation?: number;
}

export const defaultSettings: ZeroLensSettings = {
  configFiles: [],
  validate: true,
  warnOnJsonc: true,
  inlayHints: { enabled: true },
};

/** Fills what a client left out, so the core never sees a partial object. */
export function withDefaults(partial: unknown): ZeroLensSettings {
  const value = (partial && typeof partial === 'object' ? partial : {}) as Partial<ZeroLensSettings>;
  return {
    ...defaultSettings,
    ...value,
    configFiles: Array.isArray(value.configFiles) ? value.configFiles.filter((g) => typeof g === 'string') : [],
    inlayHints: { ...defaultSettings.inlayHints, ...(value.inlayHints ?? {}) },
  };
}
