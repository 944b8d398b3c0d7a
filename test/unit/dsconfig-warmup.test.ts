import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { warmUpDsConfig } from '../../server/src/dsconfig/warmUp';
import { validateConfig } from '../../server/src/dsconfig/validation/validate';
import { complete } from '../../server/src/dsconfig/completion/complete';
import { hover } from '../../server/src/dsconfig/hover/hover';
import { defaultSettings } from '../../server/src/settings';
import { completed } from '../../server/src/completionList';
import { ConfigParses } from '../../server/src/dsconfig/parse';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

/** The idle-time warm-up only fills caches: answers for a user's document are the same before and after it. */
test('warming up changes no answer for other documents', async () => {
  const text = '{\n  "train_batch_size": 3.5,\n  "zero_optimization": {"stage": 1, "offload_param": {"device": "cpu"}},\n  "steps_per_print": 10\n}\n';
  const answers = async (version: number) => {
    const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', version, text);
    const stage = document.positionAt(text.indexOf('"stage"') + 2);
    return JSON.stringify({
      // Their data names the version they were made on, which differs by design.
      diagnostics: validateConfig(parses, document, defaultSettings).map((d) => ({ ...d, data: { ...d.data, version: undefined } })),
      hover: await hover(parses, document, stage, defaultSettings),
      completion: (await complete(parses, document, document.positionAt(text.indexOf('"steps_per_print"') + 1), defaultSettings)).map(completed),
    });
  };
  const before = await answers(1);
  let pauses = 0;
  await warmUpDsConfig(async () => void pauses++, 20);
  assert.ok(pauses >= 20, 'the warm-up yields between its steps');
  assert.equal(await answers(2), before);
});
