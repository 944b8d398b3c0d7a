import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { StreamMessageReader, type Message } from 'vscode-languageserver/node';
import { OneChunkMessageWriter } from '../../server/src/stdioMessageWriter';

function chunksOf(stream: PassThrough): Buffer[] {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return chunks;
}

test('writes each message as one chunk that the library reader decodes, multi-byte text included', async () => {
  const pipe = new PassThrough();
  const chunks = chunksOf(pipe);
  const writer = new OneChunkMessageWriter(pipe);
  const sent: Message[] = [
    { jsonrpc: '2.0', id: 1, result: { contents: { kind: 'markdown', value: '显存 per GPU: 12.5 GiB' } } } as Message,
    { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///ds_config.json', diagnostics: [] } } as Message,
  ];
  for (const message of sent) await writer.write(message);
  assert.equal(chunks.length, 2, 'one chunk per message');
  assert.match(chunks[0].toString('latin1'), /^Content-Length: \d+\r\n\r\n\{/);

  const received: Message[] = [];
  const replay = new PassThrough();
  new StreamMessageReader(replay).listen((message) => received.push(message));
  replay.end(Buffer.concat(chunks));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(received, sent);
});

test('keeps messages in order when the output is full and buffers', async () => {
  const pipe = new PassThrough({ highWaterMark: 16 });
  const chunks = chunksOf(pipe);
  pipe.pause(); // nothing drains until resumed
  const writer = new OneChunkMessageWriter(pipe);
  for (let id = 1; id <= 20; id++) await writer.write({ jsonrpc: '2.0', id, result: 'x'.repeat(id * 10) } as Message);
  pipe.resume();
  await new Promise((resolve) => setImmediate(resolve));
  const ids = chunks.map((chunk) => JSON.parse(chunk.toString('utf8').split('\r\n\r\n')[1]).id);
  assert.deepEqual(ids, Array.from({ length: 20 }, (_, i) => i + 1));
});

test('reports output errors and the output closing to the connection', async () => {
  const pipe = new PassThrough();
  const writer = new OneChunkMessageWriter(pipe);
  const errors: Error[] = [];
  let closed = false;
  writer.onError(([error]) => errors.push(error));
  writer.onClose(() => (closed = true));
  pipe.destroy(new Error('EPIPE: the editor went away'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(errors[0]?.message, 'EPIPE: the editor went away');
  assert.ok(closed);
});

test('a message that cannot be serialized is rejected and reported, and later messages still go out', async () => {
  const pipe = new PassThrough();
  const chunks = chunksOf(pipe);
  const writer = new OneChunkMessageWriter(pipe);
  const errors: unknown[] = [];
  writer.onError((error) => errors.push(error));
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  await assert.rejects(writer.write({ jsonrpc: '2.0', id: 1, result: circular } as Message));
  assert.equal(errors.length, 1);
  await writer.write({ jsonrpc: '2.0', id: 2, result: null } as Message);
  assert.equal(chunks.length, 1);
});
