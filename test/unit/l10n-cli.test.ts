/**
 * `zero-lens check` and `zero-lens estimate` in the terminal's language: run through the CLI's main with LANG as a
 * shell sets it, they print Chinese, from the usage errors to every line of the estimate report around its table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { main } from '../../server/src/cli/main';

const scripts = path.resolve(__dirname, '../../examples/scripts');

async function run(args: string[], env: Record<string, string>, cwd = scripts): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd, env });
  return { code, out, err };
}

const zh = { LANG: 'zh_CN.UTF-8' };

test('zero-lens estimate under LANG=zh_CN.UTF-8: the report around the table is Chinese, the numbers are the English run\'s', async () => {
  const args = ['estimate', 'worked_8b_5gpus.sh', '--gpu-memory', '24'];
  const chinese = await run(args, zh);
  const english = await run(args, { LANG: 'en_US.UTF-8' });
  assert.equal(chinese.code, 0, chinese.err);
  const lines = chinese.out.split('\n');
  assert.match(lines[0], /^文件：worked_8b_5gpus\.sh$/);
  // The config the script's estimate uses, here an ms-swift preset, worded in Chinese.
  assert.match(lines[1], /^DeepSpeed 配置：zero2（ms-swift 预设）$/);
  assert.match(lines[2], /^模型：Llama-3\.1-8B — 参数量 8\.03B（8,030,261,248），最大单层 525M$/);
  assert.match(lines[3], /^环境：1 个节点 × 5 张 GPU = 5；bf16，adamw；单卡显存 24\.0 GiB$/);
  assert.match(lines[4], /^训练负载：微批次 1，梯度累积 4，序列长度 2048，梯度检查点开启，全参数微调；flash 注意力、样本拼接（packing）$/);
  // The stage table: its rows in Chinese, its columns lined up by terminal width (a Chinese character takes two).
  const start = lines.indexOf('') + 1;
  const table = lines.slice(start, lines.indexOf('', start));
  assert.match(table[2], /^峰值阶段 +优化器更新 +前向 \+ 反向 +优化器更新 +前向 \+ 反向$/);
  for (const row of ['参数', '梯度', '优化器状态', '分配器缓存', '每卡合计', '已分配（峰值）', '保留（峰值）', '每节点内存']) assert.ok(table.some((line) => line.startsWith(row + ' ')), row);
  assert.match(table[table.length - 1], /^能否放下 +✗ 放不下 +✗ 放不下 +✗ 放不下 +✗ 放不下$/);
  const width = (line: string) => [...line].reduce((w, c) => w + (/[\u3000-\u9fff\uff00-\uffef]/.test(c) ? 2 : 1), 0);
  assert.equal(new Set(table.filter((line) => !line.startsWith('-')).map(width)).size, 1, table.join('\n'));
  assert.ok(lines.some((line) => /^\* 所选阶段：✗ 放不下，峰值在优化器更新；每卡合计 = 保留显存 \+ CUDA 上下文和 NCCL/.test(line)), chinese.out);
  // Same numbers in both languages.
  const numbers = (text: string) => text.match(/\d+\.\d+/g);
  assert.deepEqual(numbers(chinese.out), numbers(english.out));
});

test('zero-lens estimate under LANG=zh_CN.UTF-8: the FSDP rows line up under their Chinese headers, a space between each', async () => {
  const chinese = await run(['estimate', '--model', 'Qwen/Qwen3-8B', '--gpus-per-node', '4', '--gpu-memory', '80'], zh);
  assert.equal(chinese.code, 0, chinese.err);
  const lines = chinese.out.split('\n');
  const header = lines.find((line) => line.startsWith('GiB') && line.includes('每节点内存'));
  assert.ok(header, chinese.out);
  assert.match(header, / 保留 +每节点内存 +放得下$/);
  const width = (text: string) => [...text].reduce((w, c) => w + (/[\u3000-\u9fff\uff00-\uffef]/.test(c) ? 2 : 1), 0);
  // Each number ends in the terminal column where its header ends.
  const ends = (line: string, pattern: RegExp) => [...line.matchAll(pattern)].map((m) => width(line.slice(0, m.index! + m[0].length)));
  const headerEnds = ends(header, /每卡合计|已分配|保留|每节点内存/g);
  const rows = lines.filter((line) => line.startsWith('  FSDP '));
  assert.equal(rows.length, 3, chinese.out);
  for (const row of rows) assert.deepEqual(ends(row, /\d+\.\d+/g), headerEnds, `${header}\n${row}`);
});

test('zero-lens estimate under LANG=zh_CN.UTF-8: the notes, a size read off the name and the legend of offloaded options', async () => {
  const { code, out } = await run(['estimate', '--model', 'acme/Foo-13B-A2B', '--gpus-per-node', '4', '--stage', '2', '--offload-optimizer', 'cpu', '--grad-accum', '4'], zh);
  assert.equal(code, 0);
  assert.match(out, /^模型：Foo-13B-A2B（由名称推断的规模） — 参数量 13B/m);
  assert.match(out, /^ZeRO-2: ZeRO-2 \+ CPU 卸载（优化器状态）$/m);
  assert.match(out, /^说明：\n  - 近似值：13B-A2B 是从名称推断的（内置模型表里没有同系列模型，激活值按通用的类 Llama 形状计算：宽度 [0-9]+、[0-9]+ 层、词表 [0-9]+）。/m);
  assert.match(out, /^  - 梯度累积（4 步）配合 ZeRO-2 优化器卸载：/m);
  assert.match(out, /^  - 卸载用的 CPU 内存是锁页内存（pin_memory: true，默认值）。$/m);
});

test('zero-lens estimate\'s usage errors and missing context under LANG=zh_CN.UTF-8', async () => {
  const stage = await run(['estimate', '--model', 'Qwen/Qwen3-8B', '--stage', '7'], zh);
  assert.equal(stage.code, 2);
  assert.equal(stage.err, "zero-lens estimate: --stage 只能是 0、1、2 或 3。\n运行 'zero-lens estimate --help' 查看选项。\n");
  assert.match((await run(['estimate'], zh)).err, /^zero-lens estimate: 请指定模型：--model <id\|目录> 或 --params <N>。$/m);
  assert.match((await run(['estimate', '--params', 'seven'], zh)).err, /--params 'seven' 不是 ≥ 1 的数/);
  assert.match((await run(['estimate', 'no/such.sh'], zh)).err, /无法读取 'no\/such\.sh'：文件不存在。/);
  const lone = await run(['estimate', 'ds_config_zero3_offload.json'], zh, path.resolve(scripts, '../configs'));
  assert.equal(lone.code, 2);
  assert.match(lone.err, /^zero-lens estimate: 'ds_config_zero3_offload\.json' 没有给出模型（--model 或 --params），或者 GPU 数（--gpus-per-node）；.* 中没有启动脚本指定它，设置里也没有。$/m, lone.err);
});

test('zero-lens check under LANG=zh_CN.UTF-8: the estimate warnings and the summary are Chinese', async () => {
  const { code, out } = await run(['check', '--gpu-memory', '16', 'worked_8b_5gpus.sh', '../configs/ds_config_zero2.json'], zh);
  assert.equal(code, 1);
  assert.match(out, /worked_8b_5gpus\.sh:\d+:\d+: error \[estimate-exceeds-gpu-memory\] 估算 Llama-3\.1-8B 每卡需要 ≈ [\d.]+ GiB，超过了 16 GiB 的单卡显存（zeroLens\.gpuMemoryGiB）。/);
  assert.match(out, /ds_config_zero2\.json:\d+:\d+: error \[estimate-exceeds-gpu-memory\] ZeRO-2 每卡需要 ≈ [\d.]+ GiB，比 16\.0 GiB 的单卡显存多出/);
  assert.match(out, /2 个文件中有 2 个错误、0 个警告、0 条信息。\n$/);
});
