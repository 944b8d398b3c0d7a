/** `zero-lens --help` names every option of `zero-lens check --help`'s usage line, as README.md's examples use them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { runCli } from './cli-helpers';

const root = path.resolve(__dirname, '../..');

test("the top-level help's check line has every option check's own usage line has", async () => {
  const top = await runCli(['--help', '--lang', 'en'], root);
  const check = await runCli(['check', '--help', '--lang', 'en'], root);
  const options = (line: string | undefined): string[] => (line ?? '').match(/--[\w-]+/g) ?? [];
  const checkUsage = check.out.split('\n').find((line) => line.startsWith('Usage: zero-lens check'));
  const topCheck = top.out.split('\n').find((line) => line.trim().startsWith('zero-lens check'));
  assert.ok(options(checkUsage).includes('--cpu-memory'), checkUsage);
  assert.deepEqual(options(topCheck), options(checkUsage), topCheck);
});
