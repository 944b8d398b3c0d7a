import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Hover, MarkupContent } from 'vscode-languageserver-types';
import { startServer, type StartOptions } from './lspClient';

// The server writes in the language the editor asks for: InitializeParams.locale (VS Code's display language),
// initializationOptions.language for editors without settings, and zeroLens.language over both.
async function hoverOnStage(options: StartOptions): Promise<string> {
  const server = await startServer(options);
  try {
    const uri = 'file:///tmp/zero-lens-l10n/ds_config.json';
    await server.open(uri, 'json', '{\n  "zero_optimization": {\n    "stage": 3\n  }\n}\n');
    const hover = await server.connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 6 } });
    assert.ok(hover, 'hover on "stage"');
    return (hover.contents as MarkupContent).value;
  } finally {
    await server.stop();
  }
}

test('the hover on a ds_config key follows InitializeParams.locale, initializationOptions.language and zeroLens.language', async () => {
  const chinese = /类型：/;
  assert.match(await hoverOnStage({ locale: 'zh-cn' }), chinese, 'VS Code in Chinese');
  assert.match(await hoverOnStage({ locale: 'zh-CN' }), chinese, 'a BCP 47 tag');
  assert.match(await hoverOnStage({ locale: 'en' }), /Type: /, 'VS Code in English');
  assert.match(await hoverOnStage({}), /Type: /, 'no locale: English');
  assert.match(await hoverOnStage({ locale: 'en', initializationOptions: { language: 'zh-cn' } }), chinese, 'initializationOptions.language over the locale');
  assert.match(await hoverOnStage({ locale: 'en', settings: { language: 'zh-cn' } }), chinese, 'zeroLens.language over the display language');
  assert.match(await hoverOnStage({ locale: 'zh-cn', settings: { language: 'en' } }), /Type: /, 'zeroLens.language: en in a Chinese VS Code');
  assert.match(await hoverOnStage({ locale: 'zh-cn', settings: { language: 'auto' } }), chinese, 'auto follows the display language');
});
