import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import schema from '../../schemas/ds_config.schema.json';
import { DS, isCitation } from '../../server/src/diagnostics/upstream';
import { diagnose } from './dsconfig-validation-helpers';

// Every minimum/maximum of the schema was checked against DeepSpeed edaa7221 (the table: which line raises, or
// what DeepSpeed does instead). An error claims DeepSpeed fails, so it cites that line; the rest are warnings.

const boundKeywords = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
type Node = Record<string, unknown>;

/** Every numeric bound with the node whose x-deepspeed speaks for it: the node, or the property whose anyOf branch it is. */
function bounds(node: unknown, path: string, owner: Node | undefined, out: { path: string; keyword: string; meta: Node }[] = []) {
  if (Array.isArray(node)) node.forEach((item, i) => bounds(item, `${path}/${i}`, owner, out));
  if (!node || typeof node !== 'object' || Array.isArray(node)) return out;
  const here = node as Node;
  const speaker = /\/anyOf\/\d+$/.test(path) && owner ? owner : here;
  for (const keyword of boundKeywords) if (typeof here[keyword] === 'number') out.push({ path, keyword, meta: (speaker['x-deepspeed'] ?? {}) as Node });
  for (const [key, value] of Object.entries(here)) if (key !== 'x-deepspeed') bounds(value, `${path}/${key}`, key === 'anyOf' ? here : undefined, out);
  return out;
}

function outOfRange(config: object, locale?: 'zh-cn'): Diagnostic[] {
  return diagnose({ train_micro_batch_size_per_gpu: 1, ...config }, locale ? { settings: { locale } } : {}).filter((d) => d.code === 'out-of-range');
}

test('every bound of the schema says whether DeepSpeed refuses a value outside it (the line) or what it does instead (en and zh-cn)', () => {
  const all = bounds(schema, '', undefined);
  assert.ok(all.length > 250, `${all.length} bounds`);
  const unsaid: string[] = [];
  for (const { path, keyword, meta } of all) {
    const raises = typeof meta.boundRaises === 'string' ? meta.boundRaises : (meta.boundRaises as Record<string, string> | undefined)?.[keyword];
    if (raises !== undefined) {
      assert.ok(isCitation(`${DS}:${raises}`), `${path} ${keyword}: ${raises}`);
      assert.equal(meta.uncheckedBounds, undefined, `${path}: both a citation and an unchecked text`);
    } else if (typeof meta.uncheckedBounds === 'string') {
      assert.equal(typeof meta['uncheckedBounds-zh-cn'], 'string', `${path}: uncheckedBounds without its zh-cn`);
    } else unsaid.push(`${path} ${keyword}`);
  }
  assert.deepEqual(unsaid, []);
});

test('(a) DeepSpeed refuses it when it reads the config or builds the engine: an error linking the line that raises', () => {
  const cases: [object, string][] = [
    [{ train_micro_batch_size_per_gpu: 0 }, 'deepspeed/runtime/config.py#L933'],
    [{ fp16: { enabled: true, loss_scale: -1 } }, 'deepspeed/runtime/precision_config.py#L131-L132'],
    [{ zero_optimization: { stage: 3, offload_optimizer: { device: 'cpu', ratio: 1.5 } } }, 'deepspeed/runtime/zero/offload_config.py#L99'],
    [{ zero_optimization: { stage: 3, stage3_max_live_parameters: -1 } }, 'deepspeed/runtime/zero/config.py#L238'],
    [{ optimizer: { type: 'SGD', params: { lr: -0.1 } } }, 'deepspeed/runtime/engine.py#L2237-L2238'],
    [{ scheduler: { type: 'WarmupLR', params: { warmup_num_steps: 0 } } }, 'deepspeed/runtime/lr_schedules.py#L708-L709'],
    [{ expert_parallel: { enabled: true, expert_tensor_parallel_size: 0 } }, 'deepspeed/module_inject/auto_ep_folding.py#L77-L78'],
    [{ expert_parallel: { enabled: true, expert_tensor_parallel_size: 2 } }, 'deepspeed/module_inject/auto_ep_folding.py#L214-L215'],
  ];
  for (const [config, line] of cases) {
    const found = outOfRange(config);
    assert.equal(found.length, 1, JSON.stringify(config));
    assert.equal(found[0].severity, DiagnosticSeverity.Error, JSON.stringify(config));
    assert.equal(found[0].codeDescription?.href, `https://github.com/deepspeedai/DeepSpeed/blob/edaa7221267243c7be7fb49c5d5f5c4fb97b4641/${line}`);
  }
});

test('(a) in a section DeepSpeed reads only when enabled: an error when it is, a warning when it is not', () => {
  const elastic = (enabled: boolean) => outOfRange({ elasticity: { enabled, max_train_batch_size: 8, micro_batch_sizes: [1], min_gpus: 0, ignore_non_elastic_batch_info: true } });
  assert.equal(elastic(true)[0].severity, DiagnosticSeverity.Error);
  assert.match(String(elastic(true)[0].codeDescription?.href), /deepspeed\/elasticity\/config\.py#L80-L82$/);
  const off = elastic(false);
  assert.equal(off[0].severity, DiagnosticSeverity.Warning);
  assert.equal(off[0].message, '"min_gpus" must be >= 1; got 0. DeepSpeed refuses it once the section is enabled.');
  // In Chinese a DeepSpeed config's section is a 配置段, as README.zh-CN.md and '"{0}" section' say it ("这一部分" was vague).
  const offZh = outOfRange({ elasticity: { enabled: false, max_train_batch_size: 8, micro_batch_sizes: [1], min_gpus: 0, ignore_non_elastic_batch_info: true } }, 'zh-cn');
  assert.equal(offZh[0].message, '"min_gpus" 必须 >= 1；实际是 0。这个配置段启用后，DeepSpeed 会拒绝它。');
  assert.equal(outOfRange({ expert_parallel: { num_expert_groups: 0 } })[0].severity, DiagnosticSeverity.Warning);
});

test('(b) DeepSpeed does not check it: a warning that says what DeepSpeed does with the value, in both languages', () => {
  const [print] = outOfRange({ steps_per_print: -5 });
  assert.equal(print.severity, DiagnosticSeverity.Warning);
  assert.equal(print.message, '"steps_per_print" should be >= 1; got -5. DeepSpeed does not check it: a negative value prints at the interval of its absolute value (0 raises ZeroDivisionError at the first optimizer step, engine.py:3392).');
  // Adam is FusedAdam (or DeepSpeedCPUAdam), which takes any number; the generic params key no longer speaks for it.
  const [adam] = outOfRange({ optimizer: { type: 'AdamW', params: { lr: -1 } } });
  assert.equal(adam.severity, DiagnosticSeverity.Warning);
  assert.match(String(adam.message), /FusedAdam and DeepSpeedCPUAdam use the value as given/);
  const [beta] = outOfRange({ optimizer: { type: 'Lamb', params: { betas: [0.9, 1.5] } } });
  assert.equal(beta.severity, DiagnosticSeverity.Warning);
  assert.match(String(beta.message), /FusedLamb uses the value as given/);
  const [clip] = outOfRange({ gradient_clipping: -1 }, 'zh-cn');
  assert.equal(clip.severity, DiagnosticSeverity.Warning);
  assert.equal(clip.message, '"gradient_clipping" 应 >= 0；实际是 -1。DeepSpeed 不检查它：负值与 0 一样，不做梯度裁剪。');
  const [momentum] = outOfRange({ scheduler: { type: 'OneCycle', params: { cycle_min_lr: 0, cycle_max_lr: 1, cycle_min_mom: [2] } } });
  assert.equal(momentum.severity, DiagnosticSeverity.Warning);
});

test('a value DeepSpeed does not check that fails all the same is an error with its line: steps_per_print 0 divides by zero at the first optimizer step on rank 0', () => {
  const [zero] = outOfRange({ steps_per_print: 0 });
  assert.equal(zero.severity, DiagnosticSeverity.Error);
  assert.equal(zero.message, '"steps_per_print" must be >= 1; got 0.');
  assert.equal(zero.codeDescription?.href, 'https://github.com/deepspeedai/DeepSpeed/blob/edaa7221267243c7be7fb49c5d5f5c4fb97b4641/deepspeed/runtime/engine.py#L3392');
});

test('(c) bounds that were wrong: an ignored key has none, and params without a type are no optimizer DeepSpeed builds', () => {
  assert.deepEqual(outOfRange({ aio: { thread_count: 0 } }), []);
  assert.deepEqual(outOfRange({ optimizer: { params: { lr: -1 } } }), []);
});

test('(b) in Chinese the unchecked texts say what the English says: who never reaches the step, which way a negative learning rate moves, what the reshape does', () => {
  const said = (config: object) => String(outOfRange(config, 'zh-cn')[0]?.message);
  // "the profiler never reaches a negative step": it read "训练永远到不了负的步数" (training), not the profiler.
  assert.match(said({ flops_profiler: { enabled: true, profile_step: -1 } }), /DeepSpeed 不检查它：FLOPs 分析器永远不会到达负的步数，因此不会分析任何一步。$/);
  // The section's own docs name it FLOPs 分析器 and the hybrid engine so; its bounds' texts say it the same way.
  assert.match(said({ hybrid_engine: { enabled: true, max_out_tokens: -1 } }), /DeepSpeed 不检查它：hybrid engine（RLHF 生成）不加检查地使用它。$/);
  // "moves the weights up the gradient" is gradient ascent; "权重沿梯度方向上升" read as the weights growing.
  assert.match(said({ scheduler: { type: 'WarmupLR', params: { warmup_min_lr: -1 } } }), /负的学习率会让权重沿梯度方向更新，即梯度上升）。$/);
  // "counts from the end there but not in the reshape built from it": the reshape does not count from the end.
  assert.match(said({ weight_quantization: { quantized_initialization: { group_dim: -1 } } }), /负的维度在索引时从末尾数起，而据此构建的 reshape 不会这样数。$/);
});
