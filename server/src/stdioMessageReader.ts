import { AbstractMessageReader, Disposable, type DataCallback, type Message, type MessageReader } from 'vscode-languageserver/node';

const headerEnd = Buffer.from('\r\n\r\n');

/**
 * Reads LSP messages from the input and hands each to the connection as soon as its last byte arrives.
 *
 * The library's stream reader passes every message through a one-at-a-time lock that starts it on the next
 * turn of the event loop, then decodes it in two awaited steps. The lock keeps messages in order while a
 * decoder may be asynchronous; UTF-8 JSON decodes synchronously, so here order is simply the order of the
 * bytes. The extra turn cost each request about as much as a hover's own work (bench/README.md).
 */
export class OneChunkMessageReader extends AbstractMessageReader implements MessageReader {
  /** Bytes received and not yet framed; joined only when a header is searched or a body is complete. */
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The body length announced by the header just read, or -1 while a header is awaited. */
  private bodyLength = -1;

  constructor(private readonly input: NodeJS.ReadableStream) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer | string): void => this.onData(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk, callback);
    const onError = (error: Error): void => this.fireError(error);
    const onClose = (): void => this.fireClose();
    this.input.on('data', onData);
    this.input.on('error', onError);
    this.input.on('close', onClose);
    return Disposable.create(() => {
      this.input.off('data', onData);
      this.input.off('error', onError);
      this.input.off('close', onClose);
    });
  }

  private onData(chunk: Buffer, callback: DataCallback): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.bodyLength < 0 && !this.readHeader()) return;
      // A large message arrives in many chunks: wait for all of it before joining them.
      if (this.buffered < this.bodyLength) return;
      const data = this.joined();
      const body = data.toString('utf8', 0, this.bodyLength);
      this.keep(data.subarray(this.bodyLength));
      this.bodyLength = -1;
      this.deliver(body, callback);
    }
  }

  /** Consumes one header block; false when it has not fully arrived. */
  private readHeader(): boolean {
    const data = this.joined();
    const end = data.indexOf(headerEnd);
    if (end < 0) return false;
    const header = data.toString('latin1', 0, end);
    this.keep(data.subarray(end + headerEnd.length));
    const length = contentLength(header);
    if (length === undefined) {
      // Framing is lost: report it and look for the next header, which names its own length again.
      this.fireError(new Error(`An LSP message header has no valid Content-Length: ${JSON.stringify(header.slice(0, 200))}`));
      return this.readHeader();
    }
    this.bodyLength = length;
    return true;
  }

  private deliver(body: string, callback: DataCallback): void {
    let message: Message;
    try {
      message = JSON.parse(body) as Message;
    } catch (error) {
      this.fireError(new Error(`An LSP message is not valid JSON: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    try {
      callback(message);
    } catch (error) {
      // The next messages in this chunk must still be read.
      this.fireError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  private keep(rest: Buffer): void {
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
  }
}

/**
 * The Content-Length of a header block. Other fields (Content-Type) are allowed; after a framing error the
 * block may start with the rest of a broken message, so the last Content-Length line is the one that counts.
 */
function contentLength(header: string): number | undefined {
  let length: number | undefined;
  for (const match of header.matchAll(/content-length[ \t]*:[ \t]*(\d+)[ \t]*(?:\r\n|$)/gi)) length = Number(match[1]);
  return length;
}
