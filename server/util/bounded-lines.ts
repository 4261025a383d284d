/** A line that went over the bound: only its start and end were kept, and its full size counted. */
export interface CutLine {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

const KEEP_BYTES = 4096;

/**
 * Splits a byte stream into lines without ever holding more than `maxLineBytes` of one line: a
 * longer line is cut, its middle dropped as it streams past, and reported by size with its first
 * and last `keepBytes` (4 KB unless told). Cost is linear in the bytes read, whatever their shape.
 */
export class BoundedLines {
  private parts: Buffer[] = [];
  private size = 0;
  private cut?: CutLine;
  private readonly keepBytes: number;

  constructor(
    private readonly maxLineBytes: number,
    /** A line's text (UTF-8, without its newline or a carriage return before it). */
    private readonly onLine: (line: string) => void,
    private readonly onCut: (line: CutLine) => void,
    keepBytes = KEEP_BYTES,
  ) {
    this.keepBytes = keepBytes;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      // A line that starts and ends in this chunk is decoded from it, nothing held or copied first.
      if (newline !== -1 && this.size === 0 && !this.cut && newline - start <= this.maxLineBytes) {
        this.onLine(lineText(chunk, start, newline));
        start = newline + 1;
        continue;
      }
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.finishLine();
      start = newline + 1;
    }
  }

  /** Ends the stream: a last line without a newline is delivered too. */
  end(): void {
    if (this.size > 0 || this.cut) this.finishLine();
  }

  /** What the unfinished line holds so far (its start, when it is being cut). */
  pending(): Buffer {
    if (this.cut) return this.cut.head;
    return Buffer.concat(this.parts).subarray(0, this.keepBytes);
  }

  /** Bytes held for the unfinished line: at most `maxLineBytes`, or twice `keepBytes` once it is cut. */
  get heldBytes(): number {
    return this.cut ? this.cut.head.length + this.cut.tail.length : this.size;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.cut) {
      this.cut.bytes += piece.length;
      this.cut.tail = this.keepEnd(this.cut.tail, piece);
      return;
    }
    if (this.size + piece.length <= this.maxLineBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const keep = Math.min(this.keepBytes, this.maxLineBytes);
    const head = Buffer.concat([...this.parts, piece]).subarray(0, keep);
    this.cut = {
      bytes: this.size + piece.length,
      head: Buffer.from(head),
      tail: this.keepEnd(Buffer.alloc(0), Buffer.concat([...this.parts.slice(-2), piece])),
    };
    this.parts = [];
    this.size = 0;
  }

  private finishLine(): void {
    if (this.cut) {
      const cut = this.cut;
      this.cut = undefined;
      this.onCut(cut);
      return;
    }
    const line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.onLine(lineText(line, 0, line.length));
  }

  private keepEnd(kept: Buffer, more: Buffer): Buffer {
    const keep = this.keepBytes;
    if (more.length >= keep) return Buffer.from(more.subarray(more.length - keep));
    const joined = Buffer.concat([kept, more]);
    return Buffer.from(joined.subarray(Math.max(0, joined.length - keep)));
  }
}

const CR = 0x0d;

/**
 * The text of the line held in `bytes[start, end)` (its newline excluded), decoded as UTF-8 straight
 * from the bytes it arrived in, without a trailing carriage return (CRLF line ends).
 */
function lineText(bytes: Buffer, start: number, end: number): string {
  return bytes.toString('utf8', start, end > start && bytes[end - 1] === CR ? end - 1 : end);
}

/**
 * `text.lastIndexOf(search, position)`, but only an occurrence starting at `from` or later: -1 when
 * there is none. `lastIndexOf` alone scans back to the text's start when there is none, so cutting a
 * long line (no newline in megabytes) into windows that way costs time quadratic in its length.
 */
export function lastIndexWithin(text: string, search: string, from: number, position: number): number {
  const start = Math.max(0, from);
  if (position < start) return -1;
  const found = text.slice(start, position + search.length).lastIndexOf(search);
  return found < 0 ? -1 : start + found;
}
