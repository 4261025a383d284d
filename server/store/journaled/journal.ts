/**
 * Per-process append-only journals: `journals/<pid>-<random>.jsonl`, one JSON entry per line
 * `{"id":"<journal>:<seq>","ts":<ms>,"ops":[WriteOp...]}`. An entry is committed once its whole
 * line (ending in \n) has been written; `sync` / `syncNow` make what was written survive power
 * loss (the Store groups them). Readers only apply complete lines; an incomplete tail is left for later.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { logger } from '../../log.js';
import type { WriteOp } from '../ops.js';
import { isOpKind, OP_BODY } from '../write-op.js';

const log = logger('store');
const NEWLINE = 0x0a;
export const JOURNAL_SUFFIX = '.jsonl';

export interface JournalEntry {
  id: string;
  ts: number;
  ops: WriteOp[];
}

export interface ParsedEntry extends JournalEntry {
  journal: string;
  seq: number;
}

export interface JournalChunk {
  entries: ParsedEntry[];
  /** Byte offset just past the last complete line. */
  end: number;
  /** Bytes after `end` (a line not yet terminated). */
  tail: Buffer;
}

/** Journal file names (not paths) in the directory, sorted. */
export function listJournals(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith(JOURNAL_SUFFIX))
    .sort();
}

/** The pid encoded in a journal name, or null for a name not made by a Store. */
export function journalOwner(name: string): number | null {
  const match = /^(\d+)-[^/\\]+\.jsonl$/.exec(name);
  return match ? Number(match[1]) : null;
}

const isOp = (op: unknown): op is WriteOp => {
  if (!op || typeof op !== 'object') return false;
  const o = op as Record<string, unknown>;
  if (typeof o.table !== 'string') return false;
  const body = isOpKind(o.op) ? o[OP_BODY[o.op]] : undefined;
  return !!body && typeof body === 'object' && !Array.isArray(body);
};

/** Parses one line; null (after a warning) when it is not a valid entry. */
export function parseEntry(text: string, journal: string, where: string): ParsedEntry | null {
  try {
    const value = JSON.parse(text) as Partial<JournalEntry>;
    if (typeof value.id !== 'string' || typeof value.ts !== 'number' || !Array.isArray(value.ops) || !value.ops.every(isOp)) {
      throw new Error('not a journal entry');
    }
    const seq = Number(value.id.slice(value.id.lastIndexOf(':') + 1));
    return { id: value.id, ts: value.ts, ops: value.ops, journal, seq: Number.isFinite(seq) ? seq : 0 };
  } catch (error) {
    log.warn(`skipping invalid journal line in ${journal} ${where}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** Reads the complete lines of a journal from byte `from`. Throws ENOENT if the file is gone. */
export function readJournal(dir: string, journal: string, from: number): JournalChunk {
  const file = path.join(dir, journal);
  if (fs.statSync(file).size <= from) return { entries: [], end: from, tail: Buffer.alloc(0) };
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(size - from);
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(fd, buf, got, buf.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    const data = buf.subarray(0, got);
    const last = data.lastIndexOf(NEWLINE);
    const entries: ParsedEntry[] = [];
    let start = 0;
    while (start <= last) {
      const stop = data.indexOf(NEWLINE, start);
      if (stop > start) {
        const entry = parseEntry(data.toString('utf8', start, stop), journal, `at byte ${from + start}`);
        if (entry) entries.push(entry);
      }
      start = stop + 1;
    }
    return { entries, end: from + last + 1, tail: Buffer.from(data.subarray(last + 1)) };
  } finally {
    fs.closeSync(fd);
  }
}

/** The journal this Store appends to. */
export class JournalWriter {
  readonly name: string;
  readonly path: string;
  private fd: number | null;
  private seq = 0;
  private lastTs = 0;
  /** Bytes written (all complete lines: only this writer appends to the file). */
  size = 0;
  /** A failed append left bytes that could not be truncated away: append to a new journal. */
  broken = false;

  constructor(
    readonly dir: string,
    readonly fsync: boolean,
  ) {
    this.name = `${process.pid}-${randomBytes(6).toString('hex')}${JOURNAL_SUFFIX}`;
    this.path = path.join(dir, this.name);
    this.fd = fs.openSync(this.path, 'a');
    if (fsync) syncDir(dir);
  }

  get isOpen(): boolean {
    return this.fd !== null;
  }

  /** Appends one entry holding `ops`; returns it once committed (written, not yet synced). */
  append(ops: WriteOp[]): ParsedEntry {
    if (this.fd === null || this.broken) throw new Error(`store: journal ${this.name} is not writable`);
    const seq = this.seq + 1;
    const ts = Math.max(Date.now(), this.lastTs);
    const entry: JournalEntry = { id: `${this.name.slice(0, -JOURNAL_SUFFIX.length)}:${seq}`, ts, ops };
    const bytes = Buffer.from(JSON.stringify(entry) + '\n', 'utf8');
    try {
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(this.fd, bytes, written, bytes.length - written);
    } catch (error) {
      // Leave no torn line for the next append to glue onto.
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch (truncateError) {
        this.broken = true;
        log.error(`cannot truncate journal ${this.name} after a failed append: ${String(truncateError)}`);
      }
      throw error;
    }
    this.seq = seq;
    this.lastTs = ts;
    this.size += bytes.length;
    return { ...entry, journal: this.name, seq };
  }

  /** fdatasync off the event loop; `done` gets the error, if any. */
  sync(done: (error: Error | null) => void): void {
    if (this.fd === null) return done(new Error(`store: journal ${this.name} is closed`));
    fs.fdatasync(this.fd, done);
  }

  syncNow(): void {
    if (this.fd !== null) fs.fdatasyncSync(this.fd);
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    fs.closeSync(fd);
  }
}

/** fsync a directory so a created / renamed entry survives power loss (best effort). */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Not supported everywhere (Windows); the rename itself is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
