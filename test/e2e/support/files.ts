/**
 * Test files live in the workspace under unique names, so every test edits its own copy and
 * Ctrl+P finds exactly one match.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export const fixturesDir = path.resolve(__dirname, '../fixtures');
export const examplesDir = path.resolve(__dirname, '../../../examples');

/**
 * Copies `source` (absolute, `fixture:<name>` from test/e2e/fixtures, or relative to examples/) into `<workspace>/e2e/<name>` and returns its path.
 * The name must keep the pattern that makes the file what it is (ds_config*.json, *.sh).
 */
export function placeFile(workspace: string, source: string, name: string): string {
  const from = source.startsWith('fixture:')
    ? path.join(fixturesDir, source.slice('fixture:'.length))
    : path.isAbsolute(source) ? source : path.join(examplesDir, source);
  const target = path.join(workspace, 'e2e', name);
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(from, target);
  return target;
}

export function readText(file: string): string {
  return readFileSync(file, 'utf8');
}

/** Copies a scenario's source into the window's workspace under the scenario's name; returns path and text. */
export function placeScenario(workspace: string, scenario: { source: string; name: string }): { file: string; text: string } {
  const file = placeFile(workspace, scenario.source, scenario.name);
  return { file, text: readText(file) };
}
