import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { codeCacheDir, loadBundle } from '../../server/src/boot/codeCache';

test('the code cache lives in a per-user folder, or where ZERO_LENS_CACHE_DIR says; empty turns it off', () => {
  assert.equal(codeCacheDir({}, 'linux', '/home/u'), '/home/u/.cache/zero-lens');
  assert.equal(codeCacheDir({ XDG_CACHE_HOME: '/xdg' }, 'linux', '/home/u'), '/xdg/zero-lens');
  assert.equal(codeCacheDir({}, 'darwin', '/Users/u'), '/Users/u/Library/Caches/zero-lens');
  assert.equal(codeCacheDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u')?.endsWith(path.join('zero-lens', 'Cache')), true);
  assert.equal(codeCacheDir({ ZERO_LENS_CACHE_DIR: '/editor/storage' }, 'linux', '/home/u'), '/editor/storage');
  assert.equal(codeCacheDir({ ZERO_LENS_CACHE_DIR: '' }, 'linux', '/home/u'), undefined);
});

test('a bundle loads from source, saves its code cache once, and loads from the cache next time', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'zero-lens-code-cache-'));
  try {
    const bundle = path.join(root, 'core.js');
    writeFileSync(bundle, 'exports.answer = (x) => x * 2; exports.file = __filename; exports.req = typeof require("node:path").join;');
    const cacheDir = path.join(root, 'cache');
    const runtime = `${process.version}-${process.arch}`;
    const first = loadBundle<{ answer(x: number): number; file: string; req: string }>(bundle, 'aaaa', cacheDir);
    assert.equal(first.exports.answer(21), 42);
    assert.equal(first.exports.file, bundle);
    assert.equal(first.exports.req, 'function');
    first.saveCodeCache();
    first.saveCodeCache();
    assert.deepEqual(readdirSync(cacheDir), [`core-aaaa-${runtime}.v8`]);

    // A newer build replaces the older one's cache; another Node's cache stays.
    writeFileSync(path.join(cacheDir, 'core-zzzz-v0.0.0-x64.v8'), 'other node');
    const next = loadBundle<{ answer(x: number): number }>(bundle, 'bbbb', cacheDir);
    assert.equal(next.exports.answer(2), 4);
    next.saveCodeCache();
    assert.deepEqual(readdirSync(cacheDir).sort(), [`core-bbbb-${runtime}.v8`, 'core-zzzz-v0.0.0-x64.v8']);

    // Read back: nothing left to save.
    const cached = loadBundle<{ answer(x: number): number }>(bundle, 'bbbb', cacheDir);
    assert.equal(cached.exports.answer(5), 10);
    rmSync(path.join(cacheDir, `core-bbbb-${runtime}.v8`));
    cached.saveCodeCache();
    assert.deepEqual(readdirSync(cacheDir), ['core-zzzz-v0.0.0-x64.v8'], 'a cache that was read is not written again');

    // A production bundle comes wrapped; without a cache folder it is compiled from source.
    const wrapped = path.join(root, 'wrapped.js');
    writeFileSync(wrapped, '(function (exports, require, module, __filename, __dirname) {"use strict";exports.answer = (x) => x * 3;\n})');
    const uncached = loadBundle<{ answer(x: number): number }>(wrapped, 'cccc', undefined);
    assert.equal(uncached.exports.answer(2), 6);
    uncached.saveCodeCache();

    // No hash (a development build): required plainly, nothing written.
    const plain = loadBundle<{ answer(x: number): number }>(bundle, undefined, path.join(root, 'unused'));
    assert.equal(plain.exports.answer(1), 2);
    plain.saveCodeCache();
    assert.deepEqual(readdirSync(root).includes('unused'), false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
