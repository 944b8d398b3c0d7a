import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { fileUri, inEmptyWorkspace, openedDiagnostics, quickFixes } from './lspClient';

// `llamafactory-cli train sft.yaml key=value` through the bundled server over stdio: the YAML on disk under the
// command line's overrides (LLaMA-Factory's OmegaConf.merge), and the one-device refusal of DeepSpeed.
test('llamafactory-cli train over stdio: overrides read over the YAML on disk, with the removal fix', async () => {
  await inEmptyWorkspace(async (server, root) => {
    writeFileSync(path.join(root, 'ds_z3.json'), '{ "zero_optimization": { "stage": 3 } }\n');
    writeFileSync(path.join(root, 'sft.yaml'), 'model_name_or_path: Qwen/Qwen3-8B\nstage: sft\nfinetuning_type: full\ndeepspeed: ds_z3.json\n');
    const uri = fileUri(path.join(root, 'train.sh'));
    const text = 'CUDA_VISIBLE_DEVICES=0 llamafactory-cli train sft.yaml pure_bf16=true quantization_bit=4 use_galore=false\n';
    const lf = (d: Diagnostic[]) => d.filter((x) => String(x.code).startsWith('llamafactory-'));
    const diagnostics = lf(await openedDiagnostics(server, uri, 'shellscript', text, (d) => lf(d).length >= 3));
    const at = (d: Diagnostic) => text.slice(d.range.start.character, d.range.end.character);
    assert.deepEqual(diagnostics.map((d) => [d.code, at(d)]).sort(), [
      ['llamafactory-deepspeed-incompatible', 'CUDA_VISIBLE_DEVICES=0'],
      ['llamafactory-invalid-value', 'quantization_bit=4'],
      ['llamafactory-zero3-incompatible', 'pure_bf16=true'],
    ]);
    const zero3 = diagnostics.find((d) => d.code === 'llamafactory-zero3-incompatible')!;
    const fix = (await quickFixes(server, uri, zero3)).find((a) => a.title === 'Remove pure_bf16');
    assert.ok(fix?.edit?.changes?.[uri]?.length, 'the removal fix');
  });
});
