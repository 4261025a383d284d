/**
 * Splits a byte stream into lines without ever holding more than `maxBytes` of one line: a longer
 * line is dropped as it arrives, keeping only its first and last KB (enough to find a JSON-RPC id).
 */
import { lineText } from '../util/line-text.js';

const EDGE = 1024;
const NEWLINE = 0x0a;

export type LineEvent = { kind: 'line'; text: string } | { kind: 'too-long'; bytes: number; head: string; tail: string };

export class BoundedLines {
  private parts: Buffer[] = [];
  private size = 0;
  private dropping = false;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(private readonly maxBytes: number) {}

  /** The complete lines (and dropped over-long ones) that `chunk` finishes, in order. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
      // A line that starts and ends in this chunk is decoded from it, nothing held or copied first.
      if (this.size === 0 && nl - start <= this.maxBytes) events.push({ kind: 'line', text: lineText(chunk, start, nl) });
      else {
        this.append(chunk.subarray(start, nl));
        events.push(this.finish());
      }
      start = nl + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
    return events;
  }

  /** Bytes held for the unfinished line. */
  get pending(): number {
    return this.dropping ? this.head.length + this.tail.length : this.size;
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    if (!this.dropping && this.size + piece.length > this.maxBytes) {
      this.dropping = true;
      this.head = Buffer.concat([...this.parts, piece.subarray(0, EDGE)]).subarray(0, EDGE);
      this.parts = [];
    }
    this.size += piece.length;
    if (!this.dropping) {
      this.parts.push(piece);
      return;
    }
    const last = piece.subarray(Math.max(0, piece.length - EDGE));
    this.tail = Buffer.concat([this.tail, last]).subarray(-EDGE);
  }

  private finish(): LineEvent {
    const event: LineEvent = this.dropping
      ? { kind: 'too-long', bytes: this.size, head: this.head.toString('utf8'), tail: this.tail.toString('utf8') }
      : { kind: 'line', text: lineText(Buffer.concat(this.parts, this.size), 0, this.size) };
    this.parts = [];
    this.size = 0;
    this.dropping = false;
    this.head = Buffer.alloc(0);
    this.tail = Buffer.alloc(0);
    return event;
  }
}

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
