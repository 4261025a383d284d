/**
 * MCP over this process's stdin/stdout, like the SDK's StdioServerTransport, but a message over
 * the size limit, a line that is not JSON or not JSON-RPC gets a JSON-RPC error answer of its
 * own and the session goes on (the SDK's transport closes on an oversized message and answers
 * nothing to a malformed one).
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { logger } from '../log.js';
import { writeJsonLine } from '../util/coalesced-write.js';
import { isJsonRpcMessage } from '../util/json-rpc-shape.js';
import { byteSize, preview } from '../util/preview.js';
import { BoundedLines, idOfDropped } from './bounded-lines.js';

const log = logger('stdio');

export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly lines: BoundedLines;
  private closed = false;

  constructor(
    private readonly maxBytes: number,
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {
    this.lines = new BoundedLines(maxBytes);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onStreamError);
    this.output.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.closed ? Promise.resolve() : writeJsonLine(this.output, message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onStreamError);
    this.output.off('error', this.onStreamError);
    this.input.pause();
    this.onclose?.();
  }

  private readonly onStreamError = (error: Error) => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer) => {
    for (const event of this.lines.push(chunk)) {
      if (event.kind === 'too-long') this.tooLarge(event.bytes, idOfDropped(event.head, event.tail));
      else if (event.text.trim()) this.receive(event.text);
    }
  };

  private receive(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      log.warn(`a message that is not JSON was answered with a parse error: ${preview(line, 80)}`);
      return this.answerError(null, ErrorCode.ParseError, `Parse error: the message is not valid JSON (${preview((error as Error).message, 120)}).`);
    }
    if (!isJsonRpcMessage(json)) {
      const id = (json as { id?: unknown } | null)?.id;
      return this.answerError(typeof id === 'string' || typeof id === 'number' ? id : null, ErrorCode.InvalidRequest, 'Invalid Request: the message is not a JSON-RPC 2.0 request, notification or response.');
    }
    this.onmessage?.(json);
  }

  private tooLarge(bytes: number, id: string | number | undefined): void {
    const message = `Request too large: the message is ${byteSize(bytes)}; the limit is ${byteSize(this.maxBytes)} (setting limits.requestBytes).`;
    log.warn(`${message} ${id === undefined ? 'No id was found in it' : `Answered to id ${preview(String(id), 40)}`}.`);
    this.answerError(id ?? null, ErrorCode.InvalidRequest, message);
  }

  private answerError(id: string | number | null, code: number, message: string): void {
    // JSON-RPC answers an error whose request id is unknown with id null; the SDK's types leave null out.
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
