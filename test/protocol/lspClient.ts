/**
 * Starts the bundled `dist/server.js --stdio` exactly as another editor would and speaks LSP to it.
 * Shared by every protocol test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type CodeAction,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
  type ServerCapabilities,
  type DocumentDiagnosticReport,
  type Registration,
  type RegistrationParams,
  type ClientCapabilities,
} from 'vscode-languageserver-protocol/node';

export const serverPath = path.resolve(__dirname, '../../dist/server.js');

export interface TestServer {
  connection: ProtocolConnection;
  process: ChildProcess;
  /** What the server answered to initialize. */
  capabilities: ServerCapabilities;
  /** Resolves with the next diagnostics for `uri` that satisfy `accept` (default: any). */
  diagnostics(uri: string, accept?: (d: Diagnostic[]) => boolean, timeoutMs?: number): Promise<PublishDiagnosticsParams>;
  open(uri: string, languageId: string, text: string, version?: number): Promise<void>;
  change(uri: string, version: number, text: string): Promise<void>;
  /** `textDocument/diagnostic` (servers started with `pull`). */
  pull(uri: string, previousResultId?: string): Promise<DocumentDiagnosticReport>;
  /** Resolves at the next `workspace/diagnostic/refresh` the server sends. */
  nextRefresh(timeoutMs?: number): Promise<void>;
  /** How many `textDocument/publishDiagnostics` notifications arrived so far. */
  pushes(): number;
  /** The capabilities the server registered dynamically (`client/registerCapability`) so far. */
  registrations(): Registration[];
  /** The ids the server unregistered (`client/unregisterCapability`) so far. */
  unregistrations(): string[];
  stop(): Promise<void>;
  stderr(): string;
  /** The `window/logMessage` notifications so far (unless a test took the handler over). */
  logs(): { type: number; message: string }[];
  /** The `window/showMessage` notifications so far: what the editor shows the user. */
  shown(): { type: number; message: string }[];
}

export interface StartOptions {
  /** Another server to speak to (the benchmark's peer); defaults to the bundled ZeRO Lens server. */
  command?: { path: string; args: string[] };
  rootPath?: string;
  /** The workspace folders of a multi-root workspace (`rootPath` alone is one folder). */
  folders?: string[];
  /** Answers `workspace/configuration` for section zeroLens. */
  settings?: Record<string, unknown>;
  initializationOptions?: Record<string, unknown>;
  /** Extra client capabilities merged into textDocument (e.g. pull diagnostics for the peer). */
  textDocumentCapabilities?: Record<string, unknown>;
  /** Extra environment for the server process. */
  env?: Record<string, string>;
  /** `InitializeParams.locale`: the editor's display language. */
  locale?: string;
  /** Announce pull diagnostics and `workspace/diagnostic/refresh`, as VS Code's client does. */
  pull?: boolean;
  /** The whole of `InitializeParams.capabilities` and no workspace folders (rootUri only): an editor other than VS Code. */
  capabilities?: ClientCapabilities;
  /**
   * Answers a request the server sends before the defaults do (return `undefined` to leave it to them; throw a
   * `ResponseError` to answer with an error): per-folder settings, a changed folder list, a refused registration.
   */
  answer?: (method: string, params: unknown) => unknown;
}

export function fileUri(file: string): string {
  return pathToFileURL(file).toString();
}

function workspaceFolders(options: StartOptions): { uri: string; name: string }[] | null {
  const folders = options.folders ?? (options.rootPath ? [options.rootPath] : undefined);
  return folders ? folders.map((folder) => ({ uri: fileUri(folder), name: path.basename(folder) })) : null;
}

/** What the client sends in `initialize`: the capabilities an editor announces, plus the test's extras. */
export function initializeParams(options: StartOptions): InitializeParams {
  if (options.capabilities) {
    return { processId: process.pid, rootUri: options.rootPath ? fileUri(options.rootPath) : null, capabilities: options.capabilities, initializationOptions: options.initializationOptions };
  }
  return {
    processId: process.pid,
    rootUri: options.rootPath ? fileUri(options.rootPath) : null,
    workspaceFolders: workspaceFolders(options),
    capabilities: {
      workspace: {
        configuration: true,
        workspaceFolders: true,
        inlayHint: { refreshSupport: true },
        ...(options.pull && { diagnostics: { refreshSupport: true } }),
      },
      textDocument: {
        publishDiagnostics: { versionSupport: true },
        ...(options.pull && { diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false } }),
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source'] } } },
        completion: { completionItem: { snippetSupport: true } },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        ...options.textDocumentCapabilities,
      },
    },
    initializationOptions: options.initializationOptions ?? {},
    ...(options.locale ? { locale: options.locale } : {}),
  };
}

/** The client's answer to a request the server sends (settings, registrations, workspace folders); null otherwise. */
export function answerServerRequest(options: StartOptions, method: string, params: unknown): unknown {
  const answered = options.answer?.(method, params);
  if (answered !== undefined) return answered;
  switch (method) {
    case 'workspace/configuration':
      return (params as { items: { section?: string }[] }).items.map((item) => (item.section === 'zeroLens' ? (options.settings ?? {}) : null));
    case 'workspace/workspaceFolders':
      return workspaceFolders(options);
    default:
      return null;
  }
}

/** Diagnostics as the server publishes them, and waiters for the next ones that match (shared with the bench's client). */
export function diagnosticsWaiters(stderr: () => string) {
  const waiters: { uri: string; accept: (d: Diagnostic[]) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  return {
    published(params: PublishDiagnosticsParams): void {
      for (const waiter of [...waiters]) {
        if (waiter.uri === params.uri && waiter.accept(params.diagnostics)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params);
        }
      }
    },
    next(uri: string, accept: (d: Diagnostic[]) => boolean = () => true, timeoutMs = 10_000): Promise<PublishDiagnosticsParams> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching diagnostics for ${uri} within ${timeoutMs} ms; stderr: ${stderr()}`)), timeoutMs);
        waiters.push({
          uri,
          accept,
          resolve: (p) => {
            clearTimeout(timer);
            resolve(p);
          },
        });
      });
    },
  };
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const command = options.command ?? { path: process.execPath, args: [serverPath, '--stdio'] };
  const child = spawn(command.path, command.args, { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ? { ...process.env, ...options.env } : process.env });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const diagnostics = diagnosticsWaiters(() => stderr);
  let pushes = 0;
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    pushes++;
    diagnostics.published(params);
  });
  const refreshWaiters: (() => void)[] = [];
  connection.onRequest('workspace/diagnostic/refresh', () => {
    for (const resolve of refreshWaiters.splice(0)) resolve();
    return null;
  });
  const registrations: Registration[] = [];
  const unregistrations: string[] = [];
  for (const method of ['workspace/configuration', 'client/registerCapability', 'client/unregisterCapability', 'workspace/inlayHint/refresh', 'workspace/workspaceFolders']) {
    connection.onRequest(method, (params: unknown) => {
      if (method === 'client/registerCapability') registrations.push(...(params as RegistrationParams).registrations);
      // The protocol's own misspelling: `unregisterations` (LSP 3.17 metaModel/metaModel.json:4263 @60f2bb8a).
      if (method === 'client/unregisterCapability') unregistrations.push(...(params as { unregisterations: { id: string }[] }).unregisterations.map((u) => u.id));
      return answerServerRequest(options, method, params);
    });
  }
  const logs: { type: number; message: string }[] = [];
  connection.onNotification('window/logMessage', (message: { type: number; message: string }) => void logs.push(message));
  const shown: { type: number; message: string }[] = [];
  connection.onNotification('window/showMessage', (message: { type: number; message: string }) => void shown.push(message));
  connection.listen();
  const initialized = await connection.sendRequest<InitializeResult>('initialize', initializeParams(options));
  await connection.sendNotification('initialized', {});

  return {
    connection,
    process: child,
    capabilities: initialized.capabilities,
    stderr: () => stderr,
    logs: () => [...logs],
    shown: () => [...shown],
    diagnostics: diagnostics.next,
    open: (uri, languageId, text, version = 1) =>
      connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } }),
    change: (uri, version, text) =>
      connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] }),
    pull: (uri, previousResultId) =>
      connection.sendRequest<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri }, ...(previousResultId !== undefined && { previousResultId }) }),
    nextRefresh: (timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no workspace/diagnostic/refresh within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        refreshWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    pushes: () => pushes,
    registrations: () => [...registrations],
    unregistrations: () => [...unregistrations],
    async stop() {
      // A server that already ended (a test of a crash) has nothing left to wait for.
      const exited = new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));
      const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
      try {
        await connection.sendRequest('shutdown');
        await connection.sendNotification('exit');
      } catch {
        child.kill('SIGKILL');
      }
      await exited;
      clearTimeout(kill);
      connection.dispose();
    },
  };
}

/** Opens a document and waits for its first diagnostics that `accept` takes (by default, any non-empty list). */
export async function openedDiagnostics(
  server: TestServer,
  uri: string,
  languageId: string,
  text: string,
  accept: (d: Diagnostic[]) => boolean = (d) => d.length > 0,
): Promise<Diagnostic[]> {
  const published = server.diagnostics(uri, accept);
  await server.open(uri, languageId, text);
  return (await published).diagnostics;
}

/** The quick fixes the server offers for one of its diagnostics. */
export function quickFixes(server: TestServer, uri: string, diagnostic: Diagnostic): Promise<CodeAction[]> {
  return server.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri },
    range: diagnostic.range,
    context: { diagnostics: [diagnostic], only: ['quickfix'] },
  });
}

/** A server over an empty temporary workspace (80 GiB GPUs unless `options` say otherwise), stopped and the folder removed after `run`. */
export async function inEmptyWorkspace(run: (server: TestServer, root: string) => Promise<void>, options: Omit<StartOptions, 'rootPath'> = { settings: { gpuMemoryGiB: 80 } }): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'zero-lens-launch-')));
  const server = await startServer({ ...options, rootPath: root });
  try {
    await run(server, root);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
