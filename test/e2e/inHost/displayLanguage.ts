/**
 * Runs inside code-server's extension host (as `extensionTestsPath`, see test/e2e/chinese.test.ts): reports the
 * display language VS Code gives extensions and the texts ZeRO Lens's manifest and bundle resolve to in it.
 */
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  const extension = vscode.extensions.getExtension('zero-lens.zero-lens');
  const manifest = (extension?.packageJSON ?? {}) as { contributes?: { commands?: { command: string; title: string }[] } };
  const report = {
    language: vscode.env.language,
    commandTitles: Object.fromEntries((manifest.contributes?.commands ?? []).map((c) => [c.command, c.title])),
    active: extension?.isActive ?? false,
  };
  console.log(`ZL-L10N ${JSON.stringify(report)}`);
}
