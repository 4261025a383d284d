/**
 * The journal format of the sql.js store: `journals/*.jsonl`, one JSON entry per line
 * `{"id":"<journal>:<seq>","ts":<ms>,"ops":[WriteOp...]}`. An entry is committed once its whole line
 * (ending in \n) is in the file. `journal-<n>.jsonl` is the one journal of this release's sql.js
 * store; `<pid>-<random>.jsonl` are the per-process journals of earlier releases, imported on open
 * (journal-replay.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage, logger } from '../log.js';
import { isAlive } from './data-dir-lock.js';
import type { WriteOp } from './ops.js';

const log = logger('store');
export const JOURNALS = 'journals';
export const SNAPSHOT = 'grimoire.sqlite';

export interface ParsedEntry {
  id: string;
  ts: number;
  ops: WriteOp[];
  journal: string;
  seq: number;
}

/** Journal file names (not paths) in the directory, sorted; none when it does not exist. */
export function listJournals(dir: string): string[] {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.jsonl'))
        .sort()
    : [];
}

/** The pid of an earlier release's per-process journal, or null for any other name. */
export function journalOwner(name: string): number | null {
  const match = /^(\d+)-[^/\\]+\.jsonl$/.exec(name);
  return match ? Number(match[1]) : null;
}

/** A live process of an earlier release still writing its per-process journal in `dir`: its pid. */
export function liveLegacyWriter(dir: string): number | undefined {
  return listJournals(dir)
    .map(journalOwner)
    .find((pid): pid is number => pid !== null && pid !== process.pid && isAlive(pid));
}

/** The generation of this release's journal name (`journal-<n>.jsonl`), or null. */
export function journalGeneration(name: string): number | null {
  const match = /^journal-(\d+)\.jsonl$/.exec(name);
  return match ? Number(match[1]) : null;
}

export const journalName = (generation: number): string => `journal-${generation}.jsonl`;

/** One entry as its journal line; `seq` is the byte it starts at. */
export function entryLine(journal: string, seq: number, ts: number, ops: WriteOp[]): Buffer {
  return Buffer.from(JSON.stringify({ id: `${journal.replace(/\.jsonl$/, '')}:${seq}`, ts, ops }) + '\n', 'utf8');
}

/** Parses one line; null (after a warning) when it is not an entry. Its ops are validated where they are applied. */
export function parseEntry(text: string, journal: string): ParsedEntry | null {
  try {
    const value = JSON.parse(text) as Partial<ParsedEntry>;
    if (
      typeof value.id !== 'string' ||
      typeof value.ts !== 'number' ||
      !Array.isArray(value.ops) ||
      !value.ops.every((op: unknown) => op !== null && typeof op === 'object')
    ) {
      throw new Error('not a journal entry');
    }
    const seq = Number(value.id.slice(value.id.lastIndexOf(':') + 1));
    return { id: value.id, ts: value.ts, ops: value.ops, journal, seq: Number.isFinite(seq) ? seq : 0 };
  } catch (error) {
    log.warn(`skipping invalid journal line in ${journal}: ${errorMessage(error)}`);
    return null;
  }
}

/**
 * The complete lines of a journal from byte `from`: their entries, the byte past the last one, and what
 * follows it (a line not terminated).
 */
export function readJournal(
  dir: string,
  journal: string,
  from: number,
): { entries: ParsedEntry[]; end: number; tail: Buffer } {
  const data = fs.readFileSync(path.join(dir, journal)).subarray(from);
  const end = data.lastIndexOf(0x0a) + 1;
  const lines = data
    .toString('utf8', 0, end)
    .split('\n')
    .filter((text) => text !== '');
  const entries = lines.map((text) => parseEntry(text, journal)).filter((entry) => entry !== null);
  return { entries, end: from + end, tail: data.subarray(end) };
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
