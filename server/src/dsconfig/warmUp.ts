import { visit } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { defaultSettings } from '../settings';
import { completed } from '../completionList';
import { complete } from './completion/complete';
import { hover } from './hover/hover';
import { validateConfigAsync } from './validation/validate';
import { ConfigParses } from './parse';

/** A small ZeRO-3 config with the sections people edit most. */
// l10n-ignore: a config, not prose
const sample = `{
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": 8,
  "gradient_clipping": 1.0,
  "steps_per_print": 100,
  "bf16": { "enabled": true },
  "optimizer": { "type": "AdamW", "params": { "lr": 2e-5, "weight_decay": 0.01 } },
  "zero_optimization": {
    "stage": 3,
    "offload_optimizer": { "device": "cpu", "pin_memory": true },
    "overlap_comm": true,
    "stage3_gather_16bit_weights_on_model_save": true
  }
}
`;

/**
 * Runs validation (with one-keystroke edits), hover and completion on a built-in sample, so the JIT has
 * compiled these paths and the schema caches are filled before the user's first keystrokes instead of during
 * them. Pure and in memory; `pause` yields to the event loop between steps, so requests go first.
 */
export async function warmUpDsConfig(pause: () => Promise<void>, edits = 100): Promise<void> {
  const document = TextDocument.create('zero-lens-warmup:/ds_config.json', 'ds-config', 1, sample);
  const parses = new ConfigParses();
  const digit = sample.indexOf('"steps_per_print": 1') + '"steps_per_print": 1'.length;
  for (let i = 0; i < edits; i++) {
    const range = { start: document.positionAt(digit), end: document.positionAt(digit + 1) };
    TextDocument.update(document, [{ range, text: String(i % 10) }], i + 2);
    await validateConfigAsync(parses, document, defaultSettings);
    await pause();
  }
  const keys: number[] = [];
  visit(document.getText(), { onObjectProperty: (_name, offset) => void keys.push(offset) });
  for (let round = 0; round < 3; round++) {
    for (const offset of keys) {
      await hover(parses, document, document.positionAt(offset + 2), defaultSettings);
      // Documentation too: the editor resolves it for the focused item.
      (await complete(parses, document, document.positionAt(offset + 1), defaultSettings)).forEach(completed);
      await pause();
    }
  }
}
