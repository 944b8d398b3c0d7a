import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, doc, service, settings } from './launch-helpers';

test('"Remove --teacher_deepspeed" stops at the end of its value, not at an open quote that runs to the end of the file', async () => {
  const text = 'swift sft --model m --teacher_deepspeed zero3 "oops --lora_rank 8\nswift sft --model m2\n';
  const { ls } = service();
  const document = doc('train.sh', text);
  const diagnostics = await ls.doValidation(document, settings());
  const diagnostic = diagnostics.find((d) => d.code === 'deepspeed-unsupported-subcommand');
  assert.ok(diagnostic, diagnostics.map((d) => d.code).join(', '));
  const [remove] = (await ls.getCodeActions(document, diagnostic.range, { diagnostics: [diagnostic] }, settings())).filter((a) => a.title === 'Remove --teacher_deepspeed');
  assert.equal(applyEdits(document, remove.edit!.changes![document.uri]), 'swift sft --model m "oops --lora_rank 8\nswift sft --model m2\n');
});
