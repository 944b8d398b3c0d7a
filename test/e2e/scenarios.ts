/**
 * The user-visible behaviours both real-editor suites check: the code-server + Chromium suite (test/e2e)
 * drives them with mouse and keyboard, the @vscode/test-electron suite (test/electron) through the
 * `vscode` API. One list of files, tokens and expectations, so the two cannot drift apart.
 * Paths are relative to examples/ or test/e2e/fixtures/ (marked `fixture:`).
 */

export interface TokenPosition {
  /** 1-based line and column of the first character of the token's n-th occurrence. */
  line: number;
  column: number;
}

/** Finds `token` (its `nth` occurrence) in `text`; 1-based line and column. */
export function positionOf(text: string, token: string, nth = 0): TokenPosition {
  let offset = -1;
  for (let i = 0; i <= nth; i++) {
    offset = text.indexOf(token, offset + 1);
    if (offset < 0) throw new Error(`"${token}" (occurrence ${nth + 1}) is not in the file`);
  }
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

export const scenarios = {
  activation: {
    source: 'configs/ds_config_broken.json',
    /** The exact conventional name, in its own folder. */
    name: 'activation/ds_config.json',
    languageId: 'ds-config',
    languageName: 'DeepSpeed Config',
    /** Codes the broken example must show, each once. */
    codes: ['fp16-and-bf16', 'unknown-key', 'batch-size-mismatch', 'deprecated-key'],
  },
  stageHover: {
    source: 'configs/ds_config_zero2.json',
    name: 'ds_config_e2e_hover.json',
    token: '"stage"',
    /** The stage table: every stage, per-GPU GiB, and whether it fits. */
    expect: [/ZeRO-0/, /ZeRO-1/, /ZeRO-2/, /ZeRO-3/, /\d+(\.\d+)? GiB/, /Per GPU/i],
  },
  completion: {
    source: 'configs/ds_config_zero2.json',
    name: 'ds_config_e2e_completion.json',
    /** A new line is opened after this token's line, inside zero_optimization, and this is typed. */
    after: '"stage": 2,',
    typed: '"off',
    expectLabel: 'offload_optimizer',
    expectDocs: 'Offload optimizer states',
  },
  deprecatedFix: {
    source: 'configs/ds_config_broken.json',
    name: 'ds_config_e2e_deprecated.json',
    key: '"cpu_offload"',
    code: 'deprecated-key',
    fix: /offload_optimizer/,
    comment: '// Keep optimizer states in CPU RAM: the GPUs are small.',
    expectAfter: /"offload_optimizer"\s*:\s*\{\s*"device"\s*:\s*"cpu"\s*\}/,
  },
  enumFix: {
    source: 'fixture:ds_config_values.json',
    name: 'ds_config_e2e_values.json',
    token: '"CPU"',
    code: 'invalid-value',
    fix: /^Use "cpu"$/,
    /** Also in the file: a bool written as text, which DeepSpeed reads but other tools do not. */
    wordCode: 'boolean-as-string',
  },
  inlayHint: {
    source: 'configs/ds_config_zero2.json',
    name: 'ds_config_e2e_inlay.json',
    /** The hint sits on the stage line, after the value. */
    line: /"stage": 2.*GiB\/GPU/,
    hint: /[\d.]+ GiB\/GPU/,
  },
  switchStage: {
    source: 'configs/ds_config_zero2.json',
    name: 'ds_config_e2e_switch.json',
    token: '"stage": 2',
    fix: /Switch to ZeRO-3\b(?! \+)/,
    expectAfter: /"stage"\s*:\s*3/,
  },
  switchCommand: {
    source: 'configs/ds_config_zero2.json',
    name: 'ds_config_e2e_switch_command.json',
    command: 'ZeRO Lens: Switch ZeRO stage…',
    /** Every option is listed with its per-GPU estimate. */
    options: ['ZeRO-0', 'ZeRO-1', 'ZeRO-2', 'ZeRO-3', 'ZeRO-3 + CPU offload (optimizer, params)'],
    choose: 'ZeRO-3',
    expectAfter: /"stage"\s*:\s*3/,
  },
  languageStatus: {
    source: 'configs/ds_config_zero2.json',
    name: 'ds_config_e2e_language_status.json',
    expect: /GiB\/GPU/,
    link: 'Show memory',
  },
  swiftScript: {
    source: 'fixture:train_swift_sft.sh',
    name: 'train_e2e_swift.sh',
    languageName: 'Shell Script',
    token: 'zero3',
    hoverExpect: [/zero3/i, /\d+(\.\d+)? GiB/],
    presets: ['zero0', 'zero1', 'zero2', 'zero2_offload', 'zero3', 'zero3_offload'],
  },
  presetFix: {
    source: 'fixture:train_old_preset.sh',
    name: 'train_e2e_old_preset.sh',
    token: 'zero2-offload',
    code: 'unknown-deepspeed-preset',
    fix: /zero2_offload/,
    // An inlay hint follows the value on screen, so the pattern stops at the value.
    expectAfter: /--deepspeed zero2_offload(?![\w-])/,
  },
  fsdpConfigFile: {
    /** A Trainer `--fsdp_config` file with a misspelt key. */
    source: 'fixture:fsdp_config_misspelt.json',
    name: 'fsdp_config_e2e.json',
    token: 'use_orig_param',
    code: 'fsdp-unknown-key',
    fix: /Rename to "use_orig_params"/,
    expectAfter: /"use_orig_params": true/,
    /** The hover on a key: its documentation. */
    hoverToken: 'backward_prefetch',
    hoverExpect: [/backward_prefetch/, /backward_pre/],
  },
  configFileDevices: {
    source: 'fixture:train_swift_config.sh',
    name: 'train_e2e_swift_config.sh',
    /** The ms-swift config file the script names, placed beside it. */
    config: { source: 'fixture:swift_sft_config.yaml', name: 'swift_sft_config.yaml' },
    token: 'CUDA_VISIBLE_DEVICES',
    code: 'cuda-devices-without-nproc',
    fix: /^Add NPROC_PER_NODE=2$/,
    /** The estimate after the config file argument, with the model from the YAML and the GPUs the fix gave. */
    hintAfter: /swift_sft_config\.yaml\s*≈ [\d.]+ GiB\/GPU · Qwen3-8B · 2 GPUs/,
    expectAfter: /CUDA_VISIBLE_DEVICES=0,1 \\\nNPROC_PER_NODE=2 swift sft swift_sft_config\.yaml/,
  },
  repairedInlineJson: {
    source: 'fixture:train_swift_inline_json.sh',
    name: 'train_e2e_inline_json.sh',
    token: "'zero_optimization'",
    code: 'inline-deepspeed-json-repaired',
    fix: /^Rewrite as valid JSON$/,
    expectAfter: /--deepspeed '\{"zero_optimization": \{"stage": 3\}\}'/,
  },
  teacherBelowZero3: {
    source: 'fixture:train_swift_gkd.sh',
    name: 'train_e2e_gkd.sh',
    token: 'zero2',
    code: 'teacher-deepspeed-not-zero3',
    fix: /^Change to 'zero3'$/,
    expectAfter: /--teacher_deepspeed zero3(?![\w-])/,
  },
  pythonSwiftScript: {
    source: 'fixture:train_swift_python_script.sh',
    name: 'train_e2e_python_sft.sh',
    token: 'CUDA_VISIBLE_DEVICES',
    code: 'swift-script-single-process',
    fix: /^Start with torchrun --nproc_per_node 2$/,
    expectAfter: /^torchrun --nproc_per_node 2 swift\/cli\/sft\.py \\$/m,
  },
  zeroSectionRequired: {
    source: 'fixture:ds_config_no_zero.json',
    name: 'ds_config_e2e_no_zero.json',
    /** The ms-swift script that trains with the config, placed beside it. */
    script: { source: 'fixture:train_swift_no_zero.sh', name: 'train_e2e_no_zero.sh' },
    token: '"train_micro_batch_size_per_gpu"',
    code: 'zero-optimization-required',
    fix: /^Add "zero_optimization": \{ "stage": 0 \}$/,
    // An inlay hint follows "stage": 0 on screen, so the pattern stops at the value (the saved file is parsed).
    expectAfter: /"zero_optimization": \{\s*"stage": 0(?!\d)/,
  },
  sidebar: {
    source: 'configs/ds_config_zero2.json',
    name: 'ds_config_e2e_sidebar.json',
    containerTitle: 'ZeRO Lens',
    /** The bar for plain ZeRO-3 is applied; the file then says stage 3. */
    applyStage: '3',
    expectBefore: /"stage"\s*:\s*2/,
    expectAfter: /"stage"\s*:\s*3/,
  },
  fsdpSidebar: {
    /** accelerate FSDP FULL_SHARD on 8 GPUs; Qwen3-8B and 80 GiB come from the workspace settings. */
    source: 'fixture:accelerate_fsdp.yaml',
    name: 'accelerate_fsdp_e2e.yaml',
    /** The hover on the value of `distributed_type`. */
    token: 'FSDP',
    line: 'distributed_type',
    /** Both families' rows: the ZeRO table and the FSDP one, with the run's own row. */
    hoverExpect: [/ZeRO options for Qwen3-8B/, /ZeRO-3/, /This run and FSDP for the same job/, /FSDP FULL_SHARD/, /FSDP SHARD_GRAD_OP/, /FSDP FULL_SHARD \+ CPU offload/],
    group: 'FSDP / model parallel',
    current: 'FSDP FULL_SHARD',
  },
  duplicates: {
    files: [
      { source: 'configs/ds_config_broken.json', name: 'ds_config_e2e_duplicates.json' },
      { source: 'fixture:training_settings.json', name: 'training_settings_e2e.json' },
    ],
  },
  untrusted: {
    source: 'configs/ds_config_broken.json',
    name: 'ds_config_e2e_untrusted.json',
    codes: ['fp16-and-bf16', 'deprecated-key'],
  },
} as const;
