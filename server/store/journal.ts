/**
 * The journal format of the sql.js store: `journals/*.jsonl`, one JSON entry per line
 * `{"id":"<journal>:<seq>","ts":<ms>,"ops":[WriteOp...]}`. An entry is committed once its whole line
 * (ending in \n) is in the file; readers apply complete lines only. `journal-<n>.jsonl` is the one
 * journal of this release's sql.js store; `<pid>-<random>.jsonl` are the per-process journals of
 * earlier releases, imported on open (journal-replay.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logger } from '../log.js';
import type { WriteOp } from './ops.js';
import { isAlive } from './pids.js';

const log = logger('store');
const NEWLINE = 0x0a;
export const JOURNALS = 'journals';
export const SNAPSHOT = 'grimoire.sqlite';

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

/** Journal file names (not paths) in the directory, sorted; none when it does not exist. */
export function listJournals(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort();
}

/** The pid of an earlier release's per-process journal, or null for any other name. */
export function journalOwner(name: string): number | null {
  const match = /^(\d+)-[^/\\]+\.jsonl$/.exec(name);
  return match ? Number(match[1]) : null;
}

/** The generation of this release's journal name (`journal-<n>.jsonl`), or null. */
export function journalGeneration(name: string): number | null {
  const match = /^journal-(\d+)\.jsonl$/.exec(name);
  return match ? Number(match[1]) : null;
}

export const journalName = (generation: number): string => `journal-${generation}.jsonl`;

/** One entry as its journal line. */
export function entryLine(journal: string, seq: number, ts: number, ops: WriteOp[]): Buffer {
  const entry: JournalEntry = { id: `${journal.replace(/\.jsonl$/, '')}:${seq}`, ts, ops };
  return Buffer.from(JSON.stringify(entry) + '\n', 'utf8');
}

/** Parses one line; null (after a warning) when it is not an entry. Its ops are validated where they are applied. */
export function parseEntry(text: string, journal: string, where: string): ParsedEntry | null {
  try {
    const value = JSON.parse(text) as Partial<JournalEntry>;
    if (typeof value.id !== 'string' || typeof value.ts !== 'number' || !Array.isArray(value.ops) || !value.ops.every((op: unknown) => op !== null && typeof op === 'object')) {
      throw new Error('not a journal entry');
    }
    const seq = Number(value.id.slice(value.id.lastIndexOf(':') + 1));
    return { id: value.id, ts: value.ts, ops: value.ops, journal, seq: Number.isFinite(seq) ? seq : 0 };
  } catch (error) {
    log.warn(`skipping invalid journal line in ${journal} ${where}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** The complete lines of a journal from byte `from` (the file open as `fd`, else by its path). Throws ENOENT if it is gone. */
export function readJournal(dir: string, journal: string, from: number, fd?: number): JournalChunk {
  const own = fd ?? fs.openSync(path.join(dir, journal), 'r');
  try {
    const size = fs.fstatSync(own).size;
    if (size <= from) return { entries: [], end: from, tail: Buffer.alloc(0) };
    const buf = Buffer.alloc(size - from);
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(own, buf, got, buf.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    const data = buf.subarray(0, got);
    const last = data.lastIndexOf(NEWLINE);
    const entries: ParsedEntry[] = [];
    for (let start = 0; start <= last; ) {
      const stop = data.indexOf(NEWLINE, start);
      if (stop > start) {
        const entry = parseEntry(data.toString('utf8', start, stop), journal, `at byte ${from + start}`);
        if (entry) entries.push(entry);
      }
      start = stop + 1;
    }
    return { entries, end: from + last + 1, tail: Buffer.from(data.subarray(last + 1)) };
  } finally {
    if (fd === undefined) fs.closeSync(own);
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

/** The presence file of an open sql.js store: `journals/<pid>-<random>.open`. */
export const presenceName = (random: string): string => `${process.pid}-${random}.open`;

/** A live process that has the sql.js store of `dir` open (this one included): its pid. */
export function liveSqljsProcess(dir: string): number | undefined {
  return livePids(dir, /^(\d+)-[^/\\]+\.open$/, true);
}

/** A live process of an earlier release still writing its per-process journal in `dir`: its pid. */
export function liveLegacyWriter(dir: string): number | undefined {
  return livePids(dir, /^(\d+)-[^/\\]+\.jsonl$/, false);
}

/** The presence files in `dir` of processes that are gone (a killed store leaves its own). */
export function gonePresence(dir: string): string[] {
  return names(dir).filter((name) => {
    const match = /^(\d+)-[^/\\]+\.open$/.exec(name);
    return match !== null && !isAlive(Number(match[1]));
  });
}

function livePids(dir: string, pattern: RegExp, self: boolean): number | undefined {
  for (const name of names(dir)) {
    const pid = Number(pattern.exec(name)?.[1] ?? NaN);
    if (Number.isInteger(pid) && (self || pid !== process.pid) && isAlive(pid)) return pid;
  }
  return undefined;
}

const names = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
