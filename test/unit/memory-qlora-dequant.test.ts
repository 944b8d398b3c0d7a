import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultEstimateInput, estimate, findCatalogModel, type EstimateInput, type PhaseName } from '../../server/src/memory';
import { largestQuantizedLinear } from '../../server/src/memory/lora';

// bitsandbytes dequantises a quantised weight to 16 bits for each matmul of a training step (MatMul4Bit forward and
// backward, MatMul8bitLt backward): the largest such weight is a workspace of forward + backward.
const llama8b = findCatalogModel('meta-llama/Llama-3.1-8B')!;
const arch = llama8b.architecture!;

function run(overrides: Partial<EstimateInput>): EstimateInput {
  return {
    ...defaultEstimateInput(llama8b),
    stage: 0,
    gpusPerNode: 1,
    precision: 'bf16',
    microBatch: 1,
    gradientCheckpointing: true,
    lora: { rank: 8, targetModules: ['all-linear'], quantBits: 4 },
    ...overrides,
  };
}

const workspace = (input: EstimateInput, phase: PhaseName = 'forward-backward') => estimate(input).phases.find((p) => p.phase === phase)!.temporaries;

test('the largest quantised weight is the MLP projection: h × intermediate', () => {
  // Llama-3.1-8B: gate/up are 4096 → 14336, down 14336 → 4096; q/o 4096 × 4096, k/v 4096 × 1024.
  assert.equal(arch.hiddenSize, 4096);
  assert.equal(arch.intermediateSize, 14336);
  assert.equal(largestQuantizedLinear(arch), 4096 * 14336);
});

test('QLoRA: when a layer sets the backward peak, the dequantised weight adds to it', () => {
  // liger never builds the logits, so at 4,096 tokens the recomputed layer, not the loss, is the activation peak.
  const qlora = run({ seqLen: 4096, loss: 'liger' });
  assert.equal(workspace(qlora), 4096 * 14336 * 2);
  // 8-bit dequantises the same weight in backward.
  assert.equal(workspace({ ...qlora, lora: { ...qlora.lora!, quantBits: 8 } }), 4096 * 14336 * 2);
  // The optimizer step runs no matmul: its workspaces are those of the same run on a 16-bit base.
  assert.equal(workspace(qlora, 'optimizer-step'), workspace({ ...qlora, lora: { rank: 8, targetModules: ['all-linear'] } }, 'optimizer-step'));
});

test('QLoRA: at the loss peak (full logits of a 128k vocabulary) no layer runs, so nothing is added there', () => {
  // 512 tokens: the logits, their fp32 upcast and gradient (≈ 1.2 GiB) dwarf a recomputed layer plus 112 MiB.
  assert.equal(workspace(run({ seqLen: 512 })), 0);
});

test('LoRA on a 16-bit base multiplies with the weight itself: no workspace', () => {
  assert.equal(workspace(run({ seqLen: 4096, loss: 'liger', lora: { rank: 8, targetModules: ['all-linear'] } })), 0);
});

test('the dequantised weight is counted in the reserved pool too', () => {
  const qlora = run({ seqLen: 4096, loss: 'liger', fixedLength: true });
  const plain = { ...qlora, lora: { rank: 8, targetModules: ['all-linear'] } };
  const a = estimate(qlora);
  const b = estimate(plain);
  // The same run but for the base's storage and the workspace: reserved grows by at least the workspace.
  const storage = b.perGpu.params - a.perGpu.params;
  assert.ok(a.perGpu.reserved - (b.perGpu.reserved - storage) >= 4096 * 14336 * 2 * 0.99);
});
