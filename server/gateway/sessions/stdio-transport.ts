/**
 * MCP over this process's stdin/stdout, like the SDK's StdioServerTransport, but a message over
 * the size limit, a line that is not JSON or not JSON-RPC gets a JSON-RPC error answer of its
 * own and the session goes on (the SDK's transport closes on an oversized message and answers
 * nothing to a malformed one).
 */
import type { Readable, Writable } from 'node:stream';
import { ProtocolErrorCode, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { logger } from '../../log.js';
import { writeJsonLine } from '../../util/coalesced-write.js';
import { isJsonRpcMessage } from '../../util/json-rpc-shape.js';
import { byteSize, preview } from '../../../shared/preview.js';
import { BoundedLines } from '../../util/bounded-lines.js';

const log = logger('stdio');

const DROPPED_EDGE_BYTES = 1024;
const ID = String.raw`(-?\d{1,20}|"(?:[^"\\]|\\.){0,200}")`;
const ID_FIRST = new RegExp(String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"]{0,200}"\s*,)*\s*"id"\s*:\s*${ID}`);
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The id of a JSON-RPC message known only by its first and last KB: a top-level "id" among the
 * first keys, or as the last key (where the SDK's client puts it). Undefined when neither shows one.
 */
export function idOfDropped(head: string, tail: string): string | number | undefined {
  const match = ID_FIRST.exec(head) ?? ID_LAST.exec(tail);
  if (!match) return undefined;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return undefined;
  }
}

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
    // The first and last KB of a dropped message are enough to find its JSON-RPC id.
    this.lines = new BoundedLines(
      maxBytes,
      (line) => {
        if (line.trim()) this.receive(line);
      },
      (cut) => this.tooLarge(cut.bytes, idOfDropped(cut.head.toString('utf8'), cut.tail.toString('utf8'))),
      DROPPED_EDGE_BYTES,
    );
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
    this.lines.push(chunk);
  };

  private receive(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      log.warn(`a message that is not JSON was answered with a parse error: ${preview(line, 80)}`);
      return this.answerError(
        null,
        ProtocolErrorCode.ParseError,
        `Parse error: the message is not valid JSON (${preview((error as Error).message, 120)}).`,
      );
    }
    if (!isJsonRpcMessage(json)) {
      const id = (json as { id?: unknown } | null)?.id;
      return this.answerError(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        ProtocolErrorCode.InvalidRequest,
        'Invalid Request: the message is not a JSON-RPC 2.0 request, notification or response.',
      );
    }
    this.onmessage?.(json);
  }

  private tooLarge(bytes: number, id: string | number | undefined): void {
    const message =
      `Request too large: the message is ${byteSize(bytes)}; the limit is ${byteSize(this.maxBytes)} ` +
      `(setting limits.requestBytes).`;
    log.warn(`${message} ${id === undefined ? 'No id was found in it' : `Answered to id ${preview(String(id), 40)}`}.`);
    this.answerError(id ?? null, ProtocolErrorCode.InvalidRequest, message);
  }

  private answerError(id: string | number | null, code: number, message: string): void {
    // JSON-RPC answers an error whose request id is unknown with id null; the SDK's types leave null out.
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
