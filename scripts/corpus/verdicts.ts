/**
 * A reviewer's verdict per diagnostic code: would DeepSpeed (or the launcher that reads the file) really fail?
 * Read from the DeepSpeed source (deepspeedai/DeepSpeed at edaa7221) and the launchers. Used by survey.ts.
 *
 * Each verdict starts with one of:
 *   REAL       DeepSpeed / the launcher stops on this file as written (with current releases).
 *   MIXED      real for some findings, not for others: see the per-finding notes.
 *   FALSE      DeepSpeed / the launcher would not fail; ZeRO Lens is wrong (or too strict) here.
 *   ARTEFACT   an effect of checking the file outside its checkout or on its own (templates, missing siblings).
 */
export const verdicts: Record<string, string> = {
  'json-syntax':
    'MIXED. The .slurm launch scripts: FALSE, a ZeRO Lens CLI gap (check.ts languageOf checks every explicitly named file that is not .sh/.bash/.zsh/.yaml as a ds_config, so a Slurm batch script gets one JSON error per word). ' +
    'The DeepSpeedExamples *_TEMPLATE / curriculum files: ARTEFACT, templates with bare placeholders (CONFIG_CL_MIN, W_BIT1, ...) that the example scripts replace with sed before DeepSpeed reads them; json.load would fail on the template itself, but it is never passed as is. ' +
    'LLaVA scripts/zero2.json, zero3.json: REAL as stored (Git LFS pointer text, json.load fails), but a clone with git-lfs has the real JSON.',
  'config-not-object':
    'FALSE: follow-on error of reading a Slurm batch script as JSON (the error-tolerant parser finds a bare number such as "--nodes=16" and takes it for the whole document). Same CLI gap as json-syntax on .slurm files.',
  'unknown-key':
    'REAL with current DeepSpeed: every ZeRO and compile sub-config is a pydantic model with extra="forbid" (runtime/config_utils.py:110), so "stage3_param_persitence_threshold", "comm_overlap", "cpu_offload_params" raise a ValidationError in deepspeed.initialize (since v0.7.0, PR #2004, 2022-07; the 2020 DeepSpeedExamples were written for versions that ignored unknown ZeRO keys). ' +
    'axolotl\'s "compile": {"disable", "backend"}: CompileConfig (compile/config.py) has neither field, so it fails since v0.16.6 (DeepCompile); 0.14.4 to 0.16.5 did not read "compile" at all.',
  'contiguous-memory-without-partitioning':
    'FALSE for these files. checkpointing.configure() asserts "Must specify the number of layers with contiguous memory checkpointing" only when number_checkpoints is unset AND no num_checkpoints argument is given; DeepSpeed\'s engine never calls configure() itself, and the only consumer of these configs (DeepSpeedExamples Megatron-LM pretrain_gpt2.py:544) calls deepspeed.checkpointing.configure(mpu, deepspeed_config=..., num_checkpoints=args.num_layers). Worth a warning, not an error.',
  'out-of-range':
    'FALSE. "quantization_period": 0 in compression_training.weight_quantization: DeepSpeed only copies it (compression/config.py:139, basic_layer.py q_period) and the compression layers quantize straight to target_bits; the period is read only by the MoQ quantizer (runtime/quantize.py), and all these groups have start_bits == target_bits anyway. The schema\'s minimum 1 is not enforced by DeepSpeed; these are the official ZeroQuant/XTC example configs.',
  'deepspeed-config-not-found':
    'Mostly ARTEFACT: the referenced config exists in the repository (relative to the working directory its README uses, e.g. BELLE train/, InternVL internvl_chat/), or exists upstream but was not collected into the corpus. REAL only for LLaVA finetune_qlora.sh (/path/to/deepspeed_zero2.json is a placeholder the user must edit).',
  'max-grad-norm-in-optimizer':
    'MIXED. REAL where DeepSpeed builds the optimizer from the config: engine.py _configure_basic_optimizer raises ValueError("\'max_grad_norm\' is not supported as an optimizer parameter ...") since v0.3.0 (2020-09) — bing_bert, BingBertSquad and Megatron-LM pretrain_gpt2.py pass only model_parameters. FALSE for Megatron-LM-v1.1.5-ZeRO3, which passes its own torch.optim.AdamW to deepspeed.initialize, so the config\'s optimizer block is never built.',
  'batch-size-missing':
    'MIXED. REAL for a plain deepspeed.initialize (config.py:985 asserts "Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided") and with current transformers/accelerate, which fill only keys set to "auto" (accelerate fill_match) — older HF Trainers set the batch sizes from their own arguments, which is why pre-"auto" HF example configs omit them. FALSE for files that are not DeepSpeed configs at all (HF/LMFlow argument JSON, ms-swift --config JSON, bing_bert model config): the CLI checks every explicitly named .json as a ds_config, while the folder walk (classifyDocument) skips them.',
  'missing-key':
    'ARTEFACT: follow-on errors of the json-syntax errors in DeepSpeedExamples templates — the keys are present with placeholder values (min_difficulty: CONFIG_CL_MIN, start_bits: W_BIT1, dense_ratio: S_DENSE_RATIO), the error-tolerant parser drops them, and ZeRO Lens then reports them missing. The generated configs have them.',
  'zero-optimization-required':
    'MIXED. REAL for MoQ run.sh/test.json with current transformers (the Trainer hands the config to accelerate\'s DeepSpeedPlugin, which raises "Please specify the ZeRO optimization config in the DeepSpeed config.", accelerate utils/dataclasses.py) — the example was written for the 2021 Trainer, which did not require it. FALSE for the autotuning config (test_tune.sh line 92, ds_config_tune.json): deepspeed --autotuning writes "zero_optimization" into every experiment config (autotuner.py DEFAULT_MIN_MEM_CONFIG, run_tuning_micro_batch_sizes) and the final run uses the tuned config.',
  'invalid-value':
    'MIXED. REAL for "type": "DeepSpeed_Adam" (Megatron-LM ds_zero-offload_config.json): the name existed only in DeepSpeed 0.3.0 (removed in v0.3.1, PR #484); now the engine falls back to getattr(torch.optim, "DeepSpeed_Adam") and raises AttributeError. FALSE for gpt-neox small_tune.json "stage": [0, 1, 2, 3]: with "autotuning": {"enabled": true} a list is a tuning space the autotuner expands (autotuner.py:434).',
  'invalid-type':
    'FALSE for both. DeepSpeedExamples autotuning/ds_config.json "train_micro_batch_size_per_gpu": [8] is an autotuning search list (autotuner.py:543-547 reads lists). LMFlow train_7b_mono.json is Hugging Face TrainingArguments JSON ("fp16": true is a TrainingArguments flag), not a ds_config; only explicit naming makes the CLI check it as one.',
  'onebit-optimizer-with-zero':
    'REAL: engine.py asserts "0/1 Adam is not compatible with ZeRO" (likewise 1-bit Adam/Lamb) when it builds ZeroOneAdam from the config with zero_optimization enabled. The InternVL segmentation config is referenced by no config in the repository (unused), so nobody hit it.',
  'nproc-visible-devices-mismatch':
    'FALSE for the ms-swift version this script was written for (2803bf48, 2025-02): GRPO with --use_vllm true sets USE_VLLM=1 and is_mp() returns before the n_gpu % local_world_size assertion; the 8th GPU is deliberately left to vLLM (--vllm_device auto = cuda:7). Current ms-swift asserts (utils/env.py:70), but the script\'s --vllm_device flag is gone there too.',
};

const cwd = (dir: string) => `ARTEFACT: the file exists in the repository relative to the working directory the README uses (${dir}); ZeRO Lens resolves against the script's folder and the repository root only.`;
const absent = (where: string) => `ARTEFACT: exists upstream (${where}) but was not collected into the corpus.`;
const notConfig = (what: string) => `FALSE: ${what}, not a ds_config; checked as one only because it was named explicitly (the folder walk skips it).`;
const slurm = 'FALSE: ZeRO Lens CLI gap — a Slurm batch script named explicitly is checked as a ds_config (languageOf knows only .sh/.bash/.zsh).';
const template = 'ARTEFACT: template with placeholders that the example script fills in with sed.';
const neverBuilt = 'FALSE: Megatron-LM-v1.1.5-ZeRO3 training.py passes its own torch.optim.AdamW (optimizer=optimizer), so DeepSpeed never builds this optimizer block.';
const builtFromConfig = 'REAL: the training script passes only model_parameters, so DeepSpeed builds the optimizer from this block and raises ValueError.';

/** Notes for single findings, keyed by `${code} ${manifest file}`. */
export const verdictOverrides: Record<string, string> = {
  'json-syntax files/axolotl-ai-cloud__axolotl/examples/slurm/axolotl.slurm': slurm,
  'json-syntax files/bigscience-workshop__bigscience/train/tr11-176B-ml/tr11-176B-ml.slurm': slurm,
  'json-syntax files/bigscience-workshop__bigscience/train/tr1-13B-base/tr1-13B-round1.slurm': slurm,
  'json-syntax files/bigscience-workshop__bigscience/experiments/gpt2-hf-ds/hf_ds_gpt2_perf_n16_z2.slurm': slurm,
  'json-syntax files/haotian-liu__LLaVA/scripts/zero2.json': 'REAL as stored: a Git LFS pointer (committed at 32ddfc5); json.load fails unless git-lfs fetched the real file.',
  'json-syntax files/haotian-liu__LLaVA/scripts/zero3.json': 'REAL as stored: a Git LFS pointer (committed at 32ddfc5); json.load fails unless git-lfs fetched the real file.',
  'json-syntax files/microsoft__DeepSpeedExamples/Megatron-LM-v1.1.5-ZeRO3/curriculum_learning/ds_zero_stage_2_config_curriculum_fixed_linear.json': template,
  'json-syntax files/microsoft__DeepSpeedExamples/compression/bert/config/ds_config_structural_pruning_TEMPLATE.json': template,
  'missing-key files/microsoft__DeepSpeedExamples/Megatron-LM-v1.1.5-ZeRO3/curriculum_learning/ds_zero_stage_2_config_curriculum_fixed_linear.json': 'ARTEFACT: the keys are there with placeholder values (CONFIG_CL_MIN/MAX).',
  'missing-key files/microsoft__DeepSpeedExamples/compression/bert/config/ds_config_structural_pruning_TEMPLATE.json': 'ARTEFACT: the keys are there with placeholder values.',
  'out-of-range files/microsoft__DeepSpeedExamples/compression/bert/config/ds_config_structural_pruning_TEMPLATE.json': 'FALSE (and a template).',

  'deepspeed-config-not-found files/LianjiaTech__BELLE/train/configs/accelerate_config_ppo.yaml': cwd('BELLE/train: train/configs/deepspeed_config_ppo.json'),
  'deepspeed-config-not-found files/LianjiaTech__BELLE/train/scripts/multinode_run.sh': cwd('BELLE/train: train/configs/deepspeed_config.json'),
  'deepspeed-config-not-found files/LianjiaTech__BELLE/train/scripts/run_sft.sh': cwd('BELLE/train: train/configs/deepspeed_config_stage3.json'),
  'deepspeed-config-not-found files/OpenGVLab__InternVL/internvl_chat/shell/internvl2.5/2nd_finetune/internvl2_5_4b_dynamic_res_2nd_finetune_full.sh': cwd('internvl_chat/: internvl_chat/zero_stage1_config.json'),
  'deepspeed-config-not-found files/OpenGVLab__InternVL/internvl_chat_gpt_oss/shell/internvl3_5_qwen3/internvl3_5_2b_sft.sh': absent('internvl_chat_gpt_oss/zero_stage3_config.json, run from internvl_chat_gpt_oss/'),
  'deepspeed-config-not-found files/allenai__open-instruct/scripts/dpo_train_with_accelerate.sh': absent('configs/ds_configs/stage3_no_offloading_accelerate.conf'),
  'deepspeed-config-not-found files/allenai__open-instruct/scripts/finetune_with_accelerate_config.sh': absent('configs/ds_configs/stage3_no_offloading_accelerate.conf'),
  'deepspeed-config-not-found files/haotian-liu__LLaVA/scripts/finetune_qlora.sh': 'REAL as written: /path/to/deepspeed_zero2.json is a placeholder the user has to replace.',
  'deepspeed-config-not-found files/hiyouga__LLaMA-Factory/examples/train_full/qwen3_full_sft.yaml': absent('examples/deepspeed/ds_z3_partial_offload_config.json at the same commit 2083b8cd (a branch version; not on main)'),
  'deepspeed-config-not-found files/microsoft__DeepSpeedExamples/autotuning/hf/bert-base/test_tune.sh': absent('autotuning/hf/dsconfigs/ds_config_z2.json at dff9b78f'),

  'max-grad-norm-in-optimizer files/microsoft__DeepSpeedExamples/Megatron-LM-v1.1.5-ZeRO3/curriculum_learning/ds_zero_stage_2_config_baseline.json': neverBuilt,
  'max-grad-norm-in-optimizer files/microsoft__DeepSpeedExamples/Megatron-LM-v1.1.5-ZeRO3/curriculum_learning/ds_zero_stage_2_config_curriculum_fixed_linear.json': neverBuilt,
  'max-grad-norm-in-optimizer files/microsoft__DeepSpeedExamples/BingBertSquad/deepspeed_bsz24_config.json': builtFromConfig,
  'max-grad-norm-in-optimizer files/microsoft__DeepSpeedExamples/Megatron-LM/scripts/ds_config.json': builtFromConfig,
  'max-grad-norm-in-optimizer files/microsoft__DeepSpeedExamples/Megatron-LM/scripts/ds_zero_stage_2_config.json': builtFromConfig,
  'max-grad-norm-in-optimizer files/microsoft__DeepSpeedExamples/bing_bert/deepspeed_bsz16K_lamb_config.json': builtFromConfig,
  'max-grad-norm-in-optimizer files/microsoft__DeepSpeedExamples/bing_bert/deepspeed_bsz16K_lamb_config_seq512.json': builtFromConfig,
  'max-grad-norm-in-optimizer files/microsoft__DeepSpeedExamples/bing_bert/deepspeed_bsz4096_adam_config.json': builtFromConfig,

  'batch-size-missing files/OptimalScale__LMFlow/configs/train_7b_mono.json': notConfig('Hugging Face TrainingArguments JSON for LMFlow (its "deepspeed" key names the real config)'),
  'batch-size-missing files/microsoft__DeepSpeedExamples/bing_bert/bert_large.json': notConfig('the bing_bert model/data config'),
  'batch-size-missing files/modelscope__ms-swift/examples/yaml/deepspeed/sft.json': notConfig('an ms-swift argument file (swift sft --config); its "deepspeed" key names the real config'),
  'batch-size-missing files/modelscope__ms-swift/tests/llm/config/infer.json': notConfig('an ms-swift argument file'),
  'batch-size-missing files/modelscope__ms-swift/tests/llm/config/sft.json': notConfig('an ms-swift argument file'),
  'batch-size-missing files/huggingface__transformers/tests/deepspeed/ds_config_zero3.json': 'REAL with current transformers/accelerate (only "auto" keys are filled); this early test config predates "auto" and relied on the Trainer of its time setting the batch sizes.',
  'batch-size-missing files/microsoft__DeepSpeedExamples/MoQ/test.json': 'REAL with current transformers/accelerate; the Trainer of 2021 set them from --per_device_train_batch_size.',

  'zero-optimization-required files/microsoft__DeepSpeedExamples/MoQ/run.sh': 'REAL with current transformers, whose Trainer hands DeepSpeed to accelerate (since 2023); the 2021 Trainer the example was written for did not require the section.',
  'zero-optimization-required files/microsoft__DeepSpeedExamples/MoQ/test.json': 'REAL with current transformers, whose Trainer hands DeepSpeed to accelerate (since 2023); the 2021 Trainer the example was written for did not require the section.',
  'zero-optimization-required files/microsoft__DeepSpeedExamples/autotuning/hf/bert-base/test_tune.sh': 'FALSE: the flagged line is `deepspeed --autotuning run ...`; the autotuner adds zero_optimization to every experiment.',
  'zero-optimization-required files/microsoft__DeepSpeedExamples/autotuning/hf/dsconfigs/ds_config_tune.json': 'FALSE: an autotuning input ("autotuning": {"enabled": true}); the autotuner adds zero_optimization to every experiment.',

  'invalid-value files/EleutherAI__gpt-neox/configs/autotuning_configs/small_tune.json': 'FALSE: autotuning search list (and a gpt-neox config, of which DeepSpeed only sees the DeepSpeed keys).',
  'invalid-value files/microsoft__DeepSpeedExamples/Megatron-LM/scripts/ds_zero-offload_config.json': 'REAL on DeepSpeed >= 0.3.1: AttributeError from getattr(torch.optim, "DeepSpeed_Adam").',
  'invalid-type files/OptimalScale__LMFlow/configs/train_7b_mono.json': notConfig('Hugging Face TrainingArguments JSON for LMFlow'),
  'invalid-type files/microsoft__DeepSpeedExamples/autotuning/ds_config.json': 'FALSE: autotuning search list for the micro batch size.',

  'unknown-key files/axolotl-ai-cloud__axolotl/deepspeed_configs/zero1_torch_compile.json': 'REAL on DeepSpeed >= 0.16.6; ignored by 0.14.4-0.16.5.',
  'unknown-key files/axolotl-ai-cloud__axolotl/deepspeed_configs/zero2_torch_compile.json': 'REAL on DeepSpeed >= 0.16.6; ignored by 0.14.4-0.16.5.',
};

/** The reviewer's summary, printed at the top of SURVEY.md. Numbers refer to the run the verdicts were written against. */
export const observations: string[] = [
  'Explicitly named files: the CLI checks every file that is not .sh/.bash/.zsh/.yaml/.yml as a ds_config. The 4 Slurm batch scripts (.slurm) produce 166 json-syntax and 3 config-not-object errors, and JSON that is not a DeepSpeed config (ms-swift `--config` JSON, an LMFlow TrainingArguments JSON, the bing_bert model config) gets ds_config errors, although the folder walk (classifyDocument) skips exactly those files. Classifying explicit files too, and treating a `#!` first line or .slurm/.sbatch as shell, would remove 175 of the 312 errors (169 from .slurm, 6 from non-config JSON; all FALSE).',
  'Recognition of `--deepspeed`: ms-swift is almost complete (100 of 101); the misses elsewhere are dominated by the Megatron idiom `options="… --deepspeed --deepspeed_config ${config_json} …"` later expanded as `$options` (20 uses) or run with `eval $run_cmd` (5); then `srun … bash -c "$LAUNCHER $CMD"` / `srun python …` (3 + the 5 in .slurm files), `mpirun` (2) and a bash array `CMD+=(--deepspeed …)` (1). Comments, echo and boolean `--deepspeed` (DeepSpeed-Chat, Yi: the config is built in Python from --zero_stage) are correctly not references.',
  'Errors that would really stop a run (REAL) are mostly old DeepSpeedExamples configs broken by later DeepSpeed strictness: pydantic ZeRO config with extra="forbid" (typos such as stage3_param_persitence_threshold, comm_overlap), max_grad_norm in optimizer params, the 0.3.0-only "DeepSpeed_Adam"; plus axolotl\'s "compile": {"disable", "backend"} on DeepSpeed >= 0.16.6, a 0/1 Adam + ZeRO-3 config, and HF configs without batch sizes / zero_optimization under current transformers+accelerate.',
  'Errors that are wrong or too strict (FALSE): contiguous-memory-without-partitioning (Megatron passes num_checkpoints itself; DeepSpeed never calls checkpointing.configure), quantization_period 0 (never used by compression), autotuning search lists ([8], [0,1,2,3]) and autotuning inputs without zero_optimization, the ms-swift GRPO "one GPU left for vLLM" layout, and everything from reading .slurm or non-config JSON as a ds_config. missing-key errors that only repeat a json-syntax error (placeholder value dropped by the parser) should be suppressed.',
  'deepspeed-config-not-found is mostly about the working directory: ZeRO Lens tries the script\'s folder and the workspace root, but BELLE runs from train/ and InternVL from internvl_chat/; its own "Did you mean" already finds the file in a parent folder, so a found-in-an-ancestor case could be a warning. The rest are configs not collected into the corpus, and one real placeholder (/path/to/deepspeed_zero2.json).',
  'No crashes: every run exited 0 or 1 with a JSON report.',
];
