/**
 * The in-editor suite for @vscode/test-electron: the scenarios of test/e2e/scenarios.ts, checked through
 * the `vscode` API (the code-server suite checks the same ones with mouse and keyboard).
 * VS Code calls `run()` inside the extension host; a rejected promise fails the run.
 */
import * as vscode from 'vscode';
import { cases } from './cases';

export async function run(): Promise<void> {
  const failures: string[] = [];
  for (const [name, body] of cases) {
    const started = Date.now();
    try {
      await body();
      console.log(`  ✔ ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      failures.push(name);
      console.error(`  ✖ ${name}\n    ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  }
  console.log(`${cases.length - failures.length}/${cases.length} passed`);
  if (failures.length > 0) throw new Error(`${failures.length} failed: ${failures.join('; ')}`);
}
