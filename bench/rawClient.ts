/**
 * The bench's LSP client: Content-Length framing and JSON over the server's stdio, and nothing else.
 *
 * The protocol tests' client (vscode-jsonrpc) queues every outgoing message behind a setImmediate and every
 * incoming one behind another; on this bench's sub-millisecond requests that bookkeeping costs about as much
 * as the servers' own work, and its pauses land in whichever server's sample is in flight. A measuring
 * instrument should add as little as it can, so the sessions speak LSP through this instead. It sends the
 * same `initialize` and answers server requests the same way (both come from test/protocol/lspClient.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { answerServerRequest, diagnosticsWaiters, initializeParams, serverPath, type StartOptions } from '../test/protocol/lspClient';

export interface RawServer {
  process: ChildProcess;
  request<R = unknown>(method: string, params?: unknown): Promise<R>;
  notify(method: string, params?: unknown): void;
  /** Resolves with the next diagnostics published for `uri` that satisfy `accept` (default: any). */
  diagnostics(uri: string, accept?: (d: Diagnostic[]) => boolean, timeoutMs?: number): Promise<PublishDiagnosticsParams>;
  open(uri: string, languageId: string, text: string): void;
  stop(): Promise<void>;
}

interface Message {
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

const headerEnd = Buffer.from('\r\n\r\n');

/** Splits the server's stdout into JSON-RPC messages. */
function messageReader(onMessage: (message: Message) => void): (chunk: Buffer) => void {
  let pending: Buffer | undefined;
  return (chunk) => {
    let buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      const end = buffer.indexOf(headerEnd);
      if (end < 0) break;
      const length = Number(/Content-Length:\s*(\d+)/i.exec(buffer.toString('latin1', 0, end))?.[1]);
      const start = end + headerEnd.length;
      if (!Number.isFinite(length) || buffer.length < start + length) break;
      onMessage(JSON.parse(buffer.toString('utf8', start, start + length)) as Message);
      buffer = buffer.subarray(start + length);
    }
    pending = buffer.length > 0 ? buffer : undefined;
  };
}

export async function startRawServer(options: StartOptions = {}): Promise<RawServer> {
  const command = options.command ?? { path: process.execPath, args: [serverPath, '--stdio'] };
  const child = spawn(command.path, command.args, { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ? { ...process.env, ...options.env } : process.env });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const replies = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  const diagnostics = diagnosticsWaiters(() => stderr);
  let nextId = 1;
  let exited = false;
  child.once('exit', () => {
    exited = true;
    for (const reply of replies.values()) reply.reject(new Error(`the server exited; stderr: ${stderr}`));
    replies.clear();
  });

  const send = (message: object): void => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...message });
    child.stdin!.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };

  child.stdout!.on(
    'data',
    messageReader((message) => {
      if (message.method === undefined) {
        const reply = replies.get(message.id as number);
        replies.delete(message.id as number);
        if (message.error) reply?.reject(new Error(`${message.error.code}: ${message.error.message}`));
        else reply?.resolve(message.result ?? null);
      } else if (message.id !== undefined) {
        send({ id: message.id, result: answerServerRequest(options, message.method, message.params) });
      } else if (message.method === 'textDocument/publishDiagnostics') {
        diagnostics.published(message.params as PublishDiagnosticsParams);
      }
    }),
  );

  const request = <R>(method: string, params?: unknown): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      if (exited) return reject(new Error(`the server exited; stderr: ${stderr}`));
      const id = nextId++;
      replies.set(id, { resolve: resolve as (result: unknown) => void, reject });
      send({ id, method, params });
    });
  const notify = (method: string, params?: unknown): void => send({ method, params });

  await request('initialize', initializeParams(options));
  notify('initialized', {});

  return {
    process: child,
    request,
    notify,
    diagnostics: diagnostics.next,
    open: (uri, languageId, text) => notify('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } }),
    async stop() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
      try {
        await request('shutdown');
        notify('exit');
      } catch {
        child.kill('SIGKILL');
      }
      await gone;
      clearTimeout(kill);
    },
  };
}
