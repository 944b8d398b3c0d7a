/** The shared scenarios (test/e2e/scenarios.ts), checked through the `vscode` API. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scenarios } from '../../e2e/scenarios';
import type { FixScenario } from '../../e2e/support/quickFix';
import { applyAction, at, codeActions, codeOf, diagnosticsFor, hoverText, openScenario, waitFor } from './editor';

type Case = readonly [name: string, body: () => Promise<void>];

async function hoverAt(document: vscode.TextDocument, position: vscode.Position, accept: (text: string) => boolean): Promise<string> {
  return waitFor('a matching hover', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, position);
    const text = hoverText(hovers ?? []);
    return accept(text) ? text : undefined;
  });
}

async function completionLabels(document: vscode.TextDocument, position: vscode.Position, accept: (labels: string[]) => boolean): Promise<string[]> {
  return waitFor('matching completions', async () => {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, position);
    const labels = (list?.items ?? []).map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    return accept(labels) ? labels : undefined;
  });
}

async function fixFor(document: vscode.TextDocument, range: vscode.Range, title: RegExp): Promise<vscode.CodeAction> {
  return waitFor(`a code action ${title}`, async () => (await codeActions(document, range)).find((a) => title.test(a.title)));
}

/** Opens the scenario, waits for its diagnostic (`code`) and applies the fix titled like `fix`; returns the document. */
async function fixScenarioDiagnostic(s: FixScenario, what: string): Promise<vscode.TextDocument> {
  const { document } = await openScenario(s);
  const diagnostic = await waitFor(what, () => diagnosticsFor(document).find((d) => codeOf(d) === s.code));
  await applyAction(await fixFor(document, diagnostic.range, s.fix));
  return document;
}

export const cases: Case[] = [
  [
    'opening a ds_config.json activates the extension',
    async () => {
      const s = scenarios.activation;
      const { document } = await openScenario(s);
      assert.equal(document.languageId, s.languageId);
      const codes = await waitFor('diagnostics', () => {
        const found = diagnosticsFor(document).filter((d) => d.source === 'zero-lens').map(codeOf);
        return s.codes.every((c) => found.includes(c)) ? found : undefined;
      });
      assert.ok(codes.length >= s.codes.length);
    },
  ],
  [
    'hovering "stage" shows the stage table',
    async () => {
      const s = scenarios.stageHover;
      const { document } = await openScenario(s);
      await hoverAt(document, at(document, s.token, 2), (text) => s.expect.every((p) => p.test(text)));
    },
  ],
  [
    'completion inside zero_optimization offers offload_optimizer',
    async () => {
      const s = scenarios.completion;
      const editor = await openScenario(s);
      const after = at(editor.document, s.after, s.after.length);
      await editor.edit((edit) => edit.insert(after, `\n    ${s.typed}`));
      const position = new vscode.Position(after.line + 1, 4 + s.typed.length);
      await completionLabels(editor.document, position, (labels) => labels.includes(s.expectLabel));
    },
  ],
  [
    'a deprecated key has a diagnostic whose fix keeps the neighbouring comment',
    async () => {
      const s = scenarios.deprecatedFix;
      const text = (await fixScenarioDiagnostic(s, 'the deprecation diagnostic')).getText();
      assert.match(text, s.expectAfter);
      assert.ok(!text.includes(s.key));
      assert.ok(text.includes(s.comment));
    },
  ],
  [
    'the inlay hint after "stage" shows the per-GPU estimate',
    async () => {
      const s = scenarios.inlayHint;
      const { document } = await openScenario(s);
      const full = new vscode.Range(0, 0, document.lineCount, 0);
      const hints = await waitFor('inlay hints', async () => {
        const found = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', document.uri, full);
        return found && found.length > 0 ? found : undefined;
      });
      const onStage = hints.filter((h) => document.lineAt(h.position.line).text.includes('"stage"'));
      const label = onStage.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''))).join(' ');
      assert.match(label, s.hint);
    },
  ],
  [
    'the switch-stage quick fix edits the file',
    async () => {
      const s = scenarios.switchStage;
      const { document } = await openScenario(s);
      const start = at(document, s.token);
      await applyAction(await fixFor(document, new vscode.Range(start, start.translate(0, s.token.length)), s.fix));
      assert.match(document.getText(), s.expectAfter);
    },
  ],
  [
    'in a swift script, --deepspeed zero3 has an estimate hover and preset completion',
    async () => {
      const s = scenarios.swiftScript;
      const editor = await openScenario(s);
      const document = editor.document;
      const value = at(document, `--deepspeed ${s.token}`, '--deepspeed '.length);
      await hoverAt(document, value.translate(0, 1), (text) => s.hoverExpect.every((p) => p.test(text)));
      await editor.edit((edit) => edit.delete(new vscode.Range(value, value.translate(0, s.token.length))));
      await completionLabels(document, value, (labels) => ['zero2', 'zero3', 'zero3_offload'].every((p) => labels.includes(p)));
    },
  ],
  [
    'an ms-swift 2.x preset name gets a diagnostic and a did-you-mean fix',
    async () => {
      const s = scenarios.presetFix;
      const document = await fixScenarioDiagnostic(s, 'the preset diagnostic');
      assert.match(document.getText(), s.expectAfter);
    },
  ],
  [
    'the sidebar view opens',
    async () => {
      // The webview itself is checked in the code-server suite, where a browser can look inside it.
      await openScenario(scenarios.sidebar);
      await vscode.commands.executeCommand('zeroLens.showSidebar');
    },
  ],
  [
    'each problem is reported once (no duplicates from the built-in JSON support)',
    async () => {
      for (const target of scenarios.duplicates.files) {
        const { document } = await openScenario(target);
        await waitFor('ZeRO Lens diagnostics', () => (diagnosticsFor(document).some((d) => d.source === 'zero-lens') ? true : undefined));
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const all = diagnosticsFor(document);
        const keys = all.map((d) => `${d.range.start.line}:${d.range.start.character}:${d.message}`);
        assert.equal(new Set(keys).size, keys.length, `${target.name}: a diagnostic is shown twice`);
        const ours = new Set(all.filter((d) => d.source === 'zero-lens').map((d) => d.range.start.line));
        const doubled = all.filter((d) => d.source !== 'zero-lens' && ours.has(d.range.start.line));
        assert.deepEqual(doubled.map((d) => d.message), [], `${target.name}: built-in JSON diagnostics repeat ZeRO Lens ones`);
      }
    },
  ],
];
