import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describeUnread, readLimits, textOf } from '../../server/src/host';
import { NodeFileSystem, NodeWorkspace } from '../../server/src/nodeHost';

/** A temporary folder, removed after `run`. */
async function inTemp(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'zero-lens-safe-'));
  try {
    await run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Settles within `ms`, or fails: a read that blocks on a pipe never would. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);
}

test('only regular files are read: a named pipe, /dev/zero behind a link and a folder are refused at once, with the reason', async () => {
  await inTemp(async (dir) => {
    const disk = new NodeFileSystem();
    execFileSync('mkfifo', [path.join(dir, 'pipe.json')]);
    symlinkSync('/dev/zero', path.join(dir, 'zero.sh'));
    mkdirSync(path.join(dir, 'folder.json'));
    assert.deepEqual(await within(2000, disk.readFile(path.join(dir, 'pipe.json'), 'config')), { unread: { reason: 'not-a-file', what: 'named pipe' } });
    assert.deepEqual(await within(2000, disk.readFile(path.join(dir, 'zero.sh'), 'script')), { unread: { reason: 'not-a-file', what: 'device' } });
    assert.deepEqual(await within(2000, disk.readBytes(path.join(dir, 'pipe.json'), 0, 8, 'safetensors-header')), { unread: { reason: 'not-a-file', what: 'named pipe' } });
    assert.deepEqual(await disk.readFile(path.join(dir, 'folder.json'), 'config'), { unread: { reason: 'not-a-file', what: 'folder' } });
    assert.deepEqual(await disk.readFile(path.join(dir, 'missing.json'), 'config'), { unread: { reason: 'missing' } });
    assert.equal(describeUnread({ reason: 'not-a-file', what: 'named pipe' }), 'it is a named pipe, not a regular file');
  });
});

test('each kind of file has its cap: a sparse 600 MB config.json is refused without reading it; a small file reads', async () => {
  await inTemp(async (dir) => {
    const disk = new NodeFileSystem();
    const sparse = path.join(dir, 'config.json');
    const fd = openSync(sparse, 'w');
    ftruncateSync(fd, 600 * 1024 * 1024);
    closeSync(fd);
    const before = process.memoryUsage().rss;
    const result = await disk.readFile(sparse, 'model-config');
    assert.deepEqual(result, { unread: { reason: 'too-large', size: 600 * 1024 * 1024, limit: readLimits['model-config'] } });
    assert.ok(process.memoryUsage().rss - before < 50 * 1024 * 1024, 'nothing of it was read into memory');
    assert.match(describeUnread((result as { unread: never }).unread), /^it is 600 MiB, over the 1\.0 MiB ZeRO Lens reads of such a file$/);
    writeFileSync(path.join(dir, 'ds_config.json'), '{"zero_optimization": {"stage": 2}}');
    assert.equal(textOf(await disk.readFile(path.join(dir, 'ds_config.json'), 'config')), '{"zero_optimization": {"stage": 2}}');
    assert.deepEqual(await disk.readBytes(path.join(dir, 'ds_config.json'), 0, readLimits['safetensors-header'] + 1, 'safetensors-header'), {
      unread: { reason: 'too-large', size: readLimits['safetensors-header'] + 1, limit: readLimits['safetensors-header'] },
    });
  });
});

test('a link that leads to itself is reported as a loop, not followed forever', async () => {
  await inTemp(async (dir) => {
    symlinkSync('self.json', path.join(dir, 'self.json'));
    assert.deepEqual(await new NodeFileSystem().readFile(path.join(dir, 'self.json'), 'config'), { unread: { reason: 'link-loop' } });
  });
});

test('the workspace walk lists regular files only, follows a linked folder once and ends on link loops', async () => {
  await inTemp(async (dir) => {
    writeFileSync(path.join(dir, 'train.sh'), 'deepspeed train.py --deepspeed ds_config.json\n');
    writeFileSync(path.join(dir, 'ds_config.json'), '{}');
    execFileSync('mkfifo', [path.join(dir, 'wait.sh')]);
    symlinkSync('/dev/zero', path.join(dir, 'zero.sh'));
    mkdirSync(path.join(dir, 'real'));
    writeFileSync(path.join(dir, 'real', 'run.sh'), 'echo\n');
    symlinkSync('real', path.join(dir, 'linked'));
    symlinkSync('.', path.join(dir, 'loop'));
    symlinkSync('..', path.join(dir, 'real', 'up'));
    const workspace = new NodeWorkspace([dir]);
    const files = await within(5000, workspace.launchFiles());
    const listed = files.map((f) => path.relative(dir, f)).sort();
    // run.sh once, by whichever name the walk met first (the folder or the link to it).
    assert.equal(listed.length, 2, listed.join(', '));
    assert.ok([path.join('real', 'run.sh'), path.join('linked', 'run.sh')].includes(listed[0]), listed[0]);
    assert.equal(listed[1], 'train.sh');
    assert.deepEqual((await workspace.jsonFiles()).map((f) => path.relative(dir, f)), ['ds_config.json']);
  });
});

test('the walk stops at its bounds: files, entries and time', async () => {
  await inTemp(async (dir) => {
    for (let i = 0; i < 50; i++) writeFileSync(path.join(dir, `s${i}.sh`), 'echo\n');
    assert.equal((await new NodeWorkspace([dir], { maxFiles: 10 }).launchFiles()).length, 10);
    assert.equal((await new NodeWorkspace([dir], { maxEntries: 5 }).launchFiles()).length, 5);
    assert.equal((await new NodeWorkspace([dir], { maxMs: -1 }).launchFiles()).length, 0);
  });
});

test('restricted mode: nothing outside the workspace is touched, links leading out included; no home folder, so no cache', async () => {
  await inTemp(async (dir) => {
    const workspace = path.join(dir, 'ws');
    const outside = path.join(dir, 'outside');
    mkdirSync(workspace);
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'config.json'), '{}');
    writeFileSync(path.join(workspace, 'ds_config.json'), '{}');
    symlinkSync(path.join(outside, 'config.json'), path.join(workspace, 'leak.json'));
    const touched: string[] = [];
    const disk = new NodeFileSystem((file) => touched.push(file));
    disk.setFolders([workspace]);
    disk.setTrusted(false);
    assert.equal(disk.restricted(), true);
    assert.equal(disk.homeDir, undefined);
    assert.equal(disk.env, undefined);
    assert.deepEqual(await disk.readFile(path.join(outside, 'config.json'), 'model-config'), { unread: { reason: 'untrusted' } });
    assert.equal(await disk.exists(outside), false);
    assert.equal(await disk.listDir(outside), undefined);
    assert.deepEqual(await disk.readFile(path.join(workspace, 'leak.json'), 'config'), { unread: { reason: 'untrusted' } });
    assert.equal(textOf(await disk.readFile(path.join(workspace, 'ds_config.json'), 'config')), '{}');
    assert.deepEqual(touched.filter((f) => !f.startsWith(workspace + path.sep)), [], 'no path outside the workspace was looked at');
    disk.setTrusted(true);
    assert.equal(textOf(await disk.readFile(path.join(outside, 'config.json'), 'model-config')), '{}');
    assert.ok(disk.homeDir);
  });
});
