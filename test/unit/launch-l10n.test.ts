/** Launch diagnostics, fixes and hovers in the reader's language: the same checks in Chinese under zh-cn. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDiagnosticData } from '../../server/src/diagnostics/readDiagnosticData';
import { doc, service, settings } from './launch-helpers';

const zh = settings({ language: 'zh-cn' });

async function diagnose(name: string, text: string, files: Record<string, string> = {}) {
  const { ls } = service(files);
  return ls.doValidation(doc(name, text), zh);
}

test('launch diagnostics and their fixes come out in Chinese under zh-cn', async () => {
  const crlf = await diagnose('scripts/t.sh', 'swift sft --model Qwen/Qwen3-8B \\\r\n  --deepspeed zero2\r\n');
  assert.match(String(crlf[0].message), /^有 2 行使用 Windows 换行符（CRLF）/);

  const [stray] = await diagnose('scripts/t.sh', 'swift sft --model Qwen/Qwen3-8B --train_type full\n');
  assert.equal(stray.code, 'train-type-renamed');
  assert.equal(stray.message, '--train_type 在 ms-swift 4.0 中改名为 --tuner_type；4.1 及以后的版本不再接受 --train_type。');
  assert.deepEqual(readDiagnosticData(stray.data)?.fixes.map((f) => f.title), ['重命名为 --tuner_type']);

  const [missing] = await diagnose('scripts/t.sh', 'swift sft --model Qwen/Qwen3-8B --deepspeed configs/missing.json\n');
  assert.equal(missing.code, 'deepspeed-config-not-found');
  assert.match(String(missing.message), /^DeepSpeed 配置 'configs\/missing\.json' 既不在这个文件旁边（.*），也不在工作区根目录（.*）：ms-swift 从工作目录打开相对路径/);

  const [nvme] = await diagnose('acc.yaml', 'distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 3\n  offload_param_device: nvme\n');
  assert.equal(nvme.code, 'accelerate-nvme-without-path');
  assert.match(String(nvme.message), /^offload_param_device 是 nvme 但没有设置 offload_param_nvme_path/);
});

test('launch hovers and completion details come out in Chinese under zh-cn', async () => {
  const { ls } = service({ 'configs/ds_config_zero2.json': '{ "zero_optimization": { "stage": 2 } }' });
  const script = doc('scripts/t.sh', 'swift sft --model Qwen/Qwen3-8B --deepspeed zero3\n');
  const hover = await ls.doHover(script, { line: 0, character: 46 }, zh);
  const value = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
  assert.match(value, /\*\*ms-swift 预设 `zero3`\*\* — ZeRO-3：权重、梯度和优化器状态都分片。/);
  assert.match(value, /"auto"（由 Hugging Face Trainer 根据命令行参数填入）/);
  const list = await ls.doComplete(doc('scripts/t.sh', 'torchrun train.py --deepspeed '), { line: 0, character: 30 }, zh);
  const file = await ls.resolveCompletion(doc('scripts/t.sh', 'torchrun train.py --deepspeed '), list.items[0], zh);
  assert.equal(file.detail, '工作区中的 DeepSpeed 配置');
});
