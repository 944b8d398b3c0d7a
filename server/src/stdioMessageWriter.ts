import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-languageserver/node';

/**
 * Writes each LSP message to the output as one chunk, as soon as it is sent.
 *
 * The library's stream writer queues every message behind a setImmediate and writes the header and the body
 * separately. That costs one more turn of the event loop and two more system calls per message. A hover's
 * own work is about as cheap as those calls, so they made up a tenth of the server's CPU per request.
 * Node writes to a pipe synchronously, and the stream keeps chunks in order when the pipe is full, so the
 * queue is not needed for ordering.
 */
export class OneChunkMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;

  constructor(private readonly output: NodeJS.WritableStream) {
    super();
    output.on('error', (error: Error) => this.fireError(error));
    output.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    try {
      const body = JSON.stringify(message);
      this.output.write(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`, 'utf8');
      return Promise.resolve();
    } catch (error) {
      this.fireError(error instanceof Error ? error : new Error(String(error)), message, ++this.errorCount);
      return Promise.reject(error);
    }
  }

  end(): void {
    this.output.end();
  }
}
