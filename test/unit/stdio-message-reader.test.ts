import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { Message } from 'vscode-languageserver/node';
import { OneChunkMessageReader } from '../../server/src/stdioMessageReader';

function frame(message: object, extraHeader = ''): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n${extraHeader}\r\n`, 'latin1'), body]);
}

function listen(input: PassThrough): { messages: Message[]; errors: string[]; reader: OneChunkMessageReader } {
  const reader = new OneChunkMessageReader(input);
  const messages: Message[] = [];
  const errors: string[] = [];
  reader.onError((error) => errors.push(error instanceof Error ? error.message : String(error)));
  reader.listen((message) => messages.push(message));
  return { messages, errors, reader };
}

const sent = [
  { jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///显存/ds_config.json' }, position: { line: 3, character: 8 } } },
  { jsonrpc: '2.0', method: 'textDocument/didChange', params: { text: '{ "comment": "每张 GPU 的显存 ✓" }' } },
  { jsonrpc: '2.0', id: 2, method: 'shutdown' },
];

test('delivers every message, in order, however the bytes are cut: inside headers and inside multi-byte characters', () => {
  const stream = Buffer.concat([frame(sent[0]), frame(sent[1], 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n'), frame(sent[2])]);
  for (let cut = 1; cut < stream.length; cut++) {
    const input = new PassThrough();
    const { messages, errors } = listen(input);
    input.write(stream.subarray(0, cut));
    input.write(stream.subarray(cut));
    assert.deepEqual(messages, sent, `cut at byte ${cut}`);
    assert.deepEqual(errors, []);
  }
});

test('hands each message over during the data event that completes it, not on a later turn', () => {
  const input = new PassThrough();
  const { messages } = listen(input);
  input.write(Buffer.concat(sent.map((m) => frame(m))));
  assert.equal(messages.length, 3);
});

test('a 1 MB message in 64 KiB chunks arrives once, whole', () => {
  const big = { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { text: '{"a": [' + '1234567890, '.repeat(90_000) + '0]}' } };
  const bytes = frame(big);
  const input = new PassThrough();
  const { messages } = listen(input);
  for (let at = 0; at < bytes.length; at += 64 * 1024) input.write(bytes.subarray(at, at + 64 * 1024));
  assert.equal(messages.length, 1);
  assert.deepEqual(messages[0], big);
});

test('a header without Content-Length and a body that is not JSON are reported, and the next message still arrives', () => {
  const input = new PassThrough();
  const { messages, errors } = listen(input);
  input.write(Buffer.from('Content-Type: text/plain\r\n\r\n', 'latin1'));
  input.write(frame(sent[0]));
  const broken = Buffer.from('{"jsonrpc": "2.0", "id": 9, ', 'utf8');
  input.write(Buffer.concat([Buffer.from(`Content-Length: ${broken.length}\r\n\r\n`, 'latin1'), broken]));
  input.write(frame(sent[2]));
  assert.deepEqual(messages, [sent[0], sent[2]]);
  assert.equal(errors.length, 2);
  assert.match(errors[0], /no valid Content-Length/);
  assert.match(errors[1], /not valid JSON/);
});

test('a message the connection fails on is reported and does not stop the ones after it', () => {
  const input = new PassThrough();
  const reader = new OneChunkMessageReader(input);
  const errors: string[] = [];
  const ids: unknown[] = [];
  reader.onError((error) => errors.push(String(error)));
  reader.listen((message) => {
    ids.push((message as { id?: unknown }).id);
    if (ids.length === 1) throw new Error('handler exploded');
  });
  input.write(Buffer.concat([frame(sent[0]), frame(sent[2])]));
  assert.deepEqual(ids, [1, 2]);
  assert.match(errors[0], /handler exploded/);
});

test('input errors and closing reach the connection', async () => {
  const input = new PassThrough();
  const reader = new OneChunkMessageReader(input);
  const errors: string[] = [];
  let closed = false;
  reader.onError((error) => errors.push(String(error)));
  reader.onClose(() => (closed = true));
  reader.listen(() => undefined);
  input.destroy(new Error('EPIPE: the editor went away'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.match(errors[0] ?? '', /EPIPE/);
  assert.ok(closed);
});

test('after dispose nothing more is delivered', () => {
  const input = new PassThrough();
  const messages: Message[] = [];
  const subscription = new OneChunkMessageReader(input).listen((message) => messages.push(message));
  input.write(frame(sent[0]));
  subscription.dispose();
  input.write(frame(sent[2]));
  assert.deepEqual(messages, [sent[0]]);
});
