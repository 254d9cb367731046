import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { checkMessage, type RpcErrorCode, rpcError } from './jsonrpc.js';

/**
 * MCP over stdio (newline-delimited JSON-RPC), answering every message: the SDK's own stdio transport
 * drops a line it cannot parse or validate (the client then waits out its timeout) and closes on a
 * message over its buffer. Here a line that is not JSON gets `-32700`, one that is not a JSON-RPC
 * message (a batch, no `jsonrpc`, a null or object id, string params) `-32600` with its id when it has
 * a usable one, and a message over `maxMessageBytes` `-32700` while the rest of it is skipped: the
 * server stays up. Writes wait for `drain` through one shared promise, so no listener piles up.
 */
export class StdioLineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside a line over the limit: everything up to its newline is skipped. */
  private skipping = false;
  private drained: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxMessageBytes: number,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let end = data.indexOf(0x0a); end !== -1; end = data.indexOf(0x0a)) {
      this.take(data.subarray(0, end));
      if (!this.skipping) this.handleLine(Buffer.concat(this.pending).toString('utf8'));
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = false;
      data = data.subarray(end + 1);
    }
    this.take(data);
  };

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** Adds part of a line, or starts skipping it once it is over the limit (answered at once). */
  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes <= this.maxMessageBytes) {
      this.pending.push(part);
      return;
    }
    this.pending = [];
    this.skipping = true;
    this.reply(-32700, null, `The message is over ${this.maxMessageBytes} bytes: it was not read.`);
  }

  /** One line: a message for the server, or the JSON-RPC error it calls for. */
  private handleLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reply(-32700, null, 'Parse error: the line is not JSON.');
      return;
    }
    const checked = checkMessage(value);
    if (checked.ok) this.onmessage?.(checked.message);
    else this.reply(-32600, checked.id, checked.error);
  }

  private reply(code: RpcErrorCode, id: string | number | null, message: string): void {
    void this.write(`${rpcError(code, id, message)}\n`);
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onStreamError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(`${JSON.stringify(message)}\n`);
  }

  private async write(text: string): Promise<void> {
    while (this.drained) await this.drained;
    if (this.closed || this.stdout.writableEnded || this.stdout.destroyed) return;
    if (this.stdout.write(text)) return;
    this.drained = new Promise<void>((resolve) => {
      const done = () => {
        this.stdout.off('drain', done);
        this.stdout.off('close', done);
        this.drained = undefined;
        resolve();
      };
      this.stdout.on('drain', done);
      this.stdout.on('close', done);
    });
    await this.drained;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    this.pending = [];
    this.onclose?.();
  }
}
