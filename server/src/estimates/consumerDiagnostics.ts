import type { Diagnostic } from 'vscode-languageserver-types';
import type { ConfigView } from '../dsconfig/validation/configView';
import { metaOf, schemaForPath } from '../dsconfig/schemaIndex';
import { fix } from '../dsconfig/validation/configView';
import type { LaunchFacts } from '../launch/facts';
import { configReader, type PluginReader } from '../launch/deepspeedPlugin';
import { byPathThenCommand, where } from '../training/context';
import type { ModelInfo } from '../memory/types';
import { english, type Translate } from '../protocol';

/**
 * Checks of a ds_config that depend on who consumes it, from the workspace's launches that use it: accelerate's
 * DeepSpeedPlugin (the Hugging Face Trainer, accelerate, ms-swift, LLaMA-Factory) or a plain deepspeed.initialize
 * script. Nothing is said when no launch is known: the same key is fine under one and fails under the other.
 */
export function consumerDiagnostics(config: ConfigView, launches: LaunchFacts[], model?: ModelInfo, t: Translate = english): Diagnostic[] {
  // A script whose consumer is unknown is neither: what fails under one is fine under the other.
  const known = launches.filter((l) => !l.noTrainerArguments);
  if (known.length === 0 || config.parsed.root?.type !== 'object') return [];
  const sorted = [...known].sort(byPathThenCommand);
  const plugin = sorted.find((l) => configReader(l));
  const plain = sorted.filter((l) => !configReader(l));
  const out: Diagnostic[] = [];
  if (plain.length === sorted.length) out.push(...autoWithoutFiller(config, sorted[0], t), ...clientOptimizerWithOffload(config, sorted[0], t));
  if (plugin) out.push(...zero3SaveWithoutGather(config, plugin, configReader(plugin)!, t));
  const trainer = sorted.find((l) => configReader(l) === 'the Hugging Face Trainer' || configReader(l) === 'accelerate');
  if (trainer && model) out.push(...moeWithoutLeafModules(config, trainer, model, t));
  return out;
}

/** Keys DeepSpeed reads as plain values: a string "auto" there reaches Python code that wants a number. */
const plainValueKeys = /^(train_batch_size|train_micro_batch_size_per_gpu|gradient_accumulation_steps|gradient_clipping|optimizer\.params\..*|scheduler\.params\..*)$/;

/**
 * "auto" with nothing to fill it: only the HF Trainer and accelerate replace "auto"; a plain deepspeed.initialize
 * gets the string. In a plain-dict key (batch sizes, gradient_clipping, optimizer and scheduler params) that fails
 * at start (runtime/config.py compares train_batch_size > 0: TypeError); in a pydantic section it is dropped for
 * the default (config_utils.py), which is rarely what "auto" meant.
 */
function autoWithoutFiller(config: ConfigView, launch: LaunchFacts, t: Translate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const walk = (value: unknown, path: (string | number)[]) => {
    // Keys the HF Trainer does not fill have their own "auto" diagnostic (dsconfig valueChecks), whoever runs them.
    if (value === 'auto' && metaOf(schemaForPath(path, config.root) ?? {}).auto) {
      const dotted = path.join('.');
      const fails = plainValueKeys.test(dotted);
      out.push(
        config.diagnostic(
          'auto-not-filled',
          fails ? 'error' : 'warning',
          config.valueRange(path),
          fails
            ? t('"auto" is filled only by the Hugging Face Trainer and accelerate, and {0} hands this config to plain deepspeed.initialize: "{1}" gets the string "auto" and DeepSpeed fails at start. Write the value.', where(launch, t), dotted)
            : t('"auto" is filled only by the Hugging Face Trainer and accelerate, and {0} hands this config to plain deepspeed.initialize: DeepSpeed drops "auto" for "{1}" and uses its default. Write the value.', where(launch, t), dotted),
          { path, consumer: 'deepspeed.initialize', fixes: [fix(t('Remove "{0}"', String(path[path.length - 1])), [{ op: 'remove', path }])] },
        ),
      );
      return;
    }
    if (value && typeof value === 'object' && !Array.isArray(value) && path.length < 8) for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(config.root, []);
  return out;
}

/**
 * ZeRO-Offload with an optimizer the script passes: DeepSpeed raises ZeRORuntimeException unless it is
 * DeepSpeedCPUAdam/DeepSpeedCPULion or "zero_force_ds_cpu_optimizer" is false (engine.py:2040-2044). A config
 * without an "optimizer" block run by a plain script means the script passes one (stages 1 and 2 need one).
 * accelerate maps a PyTorch optimizer to DeepSpeedCPUAdam itself (accelerator.py:2365-2374), so only plain scripts.
 */
function clientOptimizerWithOffload(config: ConfigView, launch: LaunchFacts, t: Translate): Diagnostic[] {
  const device = config.lowerString(['zero_optimization', 'offload_optimizer', 'device']) ?? (config.isTrue(['zero_optimization', 'cpu_offload']) ? 'cpu' : undefined);
  const stage = config.knownStage();
  if (!device || device === 'none' || !stage || config.has(['optimizer']) || config.get(['zero_force_ds_cpu_optimizer']) === false) return [];
  const path = ['zero_optimization', 'offload_optimizer'];
  const at = config.has(path) ? path : ['zero_optimization', 'cpu_offload'];
  return [
    config.diagnostic(
      'client-optimizer-with-offload',
      'warning',
      config.keyRange(at),
      t(
        'The optimizer is offloaded, the config names none, and {0} runs a plain deepspeed.initialize, so the script passes its own: unless it is DeepSpeedCPUAdam or DeepSpeedCPULion, DeepSpeed raises ZeRORuntimeException ("You are using ZeRO-Offload with a client provided optimizer").',
        where(launch, t),
      ),
      {
        path: at,
        fixes: [fix(t('Set "zero_force_ds_cpu_optimizer": false'), [{ op: 'set', path: ['zero_force_ds_cpu_optimizer'], value: false }])],
      },
    ),
  ];
}

/**
 * ZeRO-3 (or AutoTP) saves through the HF Trainer / accelerate need "stage3_gather_16bit_weights_on_model_save":
 * accelerate's get_state_dict raises without it (accelerator.py:4030-4049), and the Trainer then saves only the
 * sharded DeepSpeed checkpoint, no model weights file (zero_to_fp32.py has to recover them).
 */
function zero3SaveWithoutGather(config: ConfigView, launch: LaunchFacts, reader: PluginReader, t: Translate): Diagnostic[] {
  const autotp = (config.number(['tensor_parallel', 'autotp_size']) ?? 0) > 1;
  if (config.knownStage() !== 3 && !autotp) return [];
  const keys = ['stage3_gather_16bit_weights_on_model_save', 'gather_16bit_weights_on_model_save'];
  const written = keys.map((k) => ['zero_optimization', k]).find((p) => config.has(p));
  const value = written ? config.get(written) : undefined;
  if (value === true || value === 'auto') return [];
  const path = written ?? ['zero_optimization', 'stage3_gather_16bit_weights_on_model_save'];
  const anchor = written ?? (config.has(['zero_optimization', 'stage']) ? ['zero_optimization', 'stage'] : ['zero_optimization']);
  return [
    config.diagnostic(
      'zero3-save-without-gather',
      'warning',
      written ? config.valueRange(path) : config.keyRange(anchor),
      t(
        'With {0} the weights are sharded, and "stage3_gather_16bit_weights_on_model_save" is not true: when {1} ({2}) saves the model, accelerate cannot gather the 16-bit weights (ValueError in get_state_dict), so only the sharded DeepSpeed checkpoint is written and no usable model file; zero_to_fp32.py must recover it.',
        autotp ? 'AutoTP' : 'ZeRO-3',
        readerName(reader, t),
        where(launch, t),
      ),
      { path, fixes: [fix(t('Set "stage3_gather_16bit_weights_on_model_save": true'), [{ op: 'set', path, value: true }], true)] },
    ),
  ];
}

/** Who reads the config, in the reader's language: the products keep their names. */
function readerName(reader: PluginReader, t: Translate): string {
  return reader === 'the Hugging Face Trainer' ? t('the Hugging Face Trainer') : reader;
}

/** MoE blocks DeepSpeed makes ZeRO-3 leaf modules by default (runtime/zero/leaf_module_config.py:11-15). */
const defaultLeafFamilies = /mixtral|qwen1\.5-moe|qwen2-moe|qwen2\.5-moe|qwen3-\d+b-a\d+b|qwen3-.*moe/i;

/**
 * An MoE model at ZeRO-3 under the HF Trainer or accelerate: unless its sparse block is a ZeRO-3 leaf module, ranks
 * that route tokens to different experts fetch different parameters and hang. DeepSpeed makes only the Mixtral,
 * Qwen2-MoE and Qwen3-MoE blocks leaves by default (leaf_module_config.py:11-15, in recent releases); ms-swift and
 * LLaMA-Factory set the leaves themselves (swift/model/register.py, llamafactory model_utils/moe.py).
 */
function moeWithoutLeafModules(config: ConfigView, launch: LaunchFacts, model: ModelInfo, t: Translate): Diagnostic[] {
  if (!model.architecture?.moe || config.knownStage() !== 3 || config.has(['zero_optimization', 'leaf_module'])) return [];
  const name = `${model.displayName} ${launch.model?.value ?? ''}`;
  if (defaultLeafFamilies.test(name)) return [];
  const path = ['zero_optimization', 'stage'];
  return [
    config.diagnostic(
      'moe-without-leaf-module',
      'warning',
      config.has(path) ? config.valueRange(path) : config.keyRange(['zero_optimization']),
      t(
        '{0} is a mixture-of-experts model, and ZeRO-3 partitions its expert blocks: unless the sparse-MoE block is a ZeRO-3 leaf module, ranks that route to different experts wait on each other and training hangs. DeepSpeed makes only the Mixtral, Qwen2-MoE and Qwen3-MoE blocks leaves by default; name this model\'s block class in "zero_optimization.leaf_module.classes" (or call deepspeed.utils.set_z3_leaf_modules).',
        model.displayName,
      ),
      { path },
    ),
  ];
}
