/**
 * A database brought up to date from the journals of its data dir: every entry past the snapshot's
 * watermarks (`journal_watermarks`: the bytes of each journal already in it), in stamp order (ts,
 * journal, seq). Within this release's one journal that is the order it was written in; across an
 * earlier release's per-process journals it is the order they merged them in. Used to import a
 * data dir into the database file (legacy-import.ts) and by the sql.js store when it loads.
 */
import { errorMessage, logger } from '../log.js';
import { journalGeneration, journalOwner, listJournals, parseEntry, readJournal, type ParsedEntry } from './journal.js';
import { applyOps, type RunSql, type Schema } from './ops.js';
import { rowsOf, type SqlDatabase } from './sql-surface.js';

const log = logger('store');

const byStamp = (a: ParsedEntry, b: ParsedEntry): number =>
  a.ts - b.ts || (a.journal < b.journal ? -1 : a.journal > b.journal ? 1 : 0) || a.seq - b.seq;

export interface Replay {
  /** In stamp order. */
  entries: ParsedEntry[];
  /** Per journal, the byte just past what `entries` hold of it. */
  ends: Map<string, number>;
  /** The earlier release's per-process journals among them. */
  legacy: string[];
}

/** The bytes of each journal the database already holds. */
export function watermarks(db: SqlDatabase): Map<string, number> {
  const marks = new Map<string, number>();
  for (const { journal, offset } of rowsOf<{ journal: string; offset: number }>(
    db,
    'SELECT journal, offset FROM journal_watermarks',
  ))
    marks.set(journal, offset);
  return marks;
}

/**
 * The entries of every journal in `dir` past `marks`. A per-process journal's whole unterminated
 * last line counts too (its owner is gone: checked by the caller); this release's journal gives its
 * complete lines only (a torn line was never acknowledged), and one of a generation before the
 * snapshot's is in it already (a compaction stopped before deleting it).
 */
export function readJournals(dir: string, marks: Map<string, number>): Replay {
  const entries: ParsedEntry[] = [];
  const ends = new Map<string, number>();
  const legacy: string[] = [];
  const generation = Math.max(0, ...[...marks.keys()].map((name) => journalGeneration(name) ?? 0));
  for (const name of listJournals(dir)) {
    if ((journalGeneration(name) ?? generation) < generation) continue;
    const chunk = readJournal(dir, name, marks.get(name) ?? 0);
    // One at a time: a spread of a long journal's entries would overflow the call stack.
    for (const entry of chunk.entries) entries.push(entry);
    ends.set(name, chunk.end);
    if (journalOwner(name) === null) continue;
    legacy.push(name);
    const tail = chunk.tail.length > 0 ? parseEntry(chunk.tail.toString('utf8'), name) : null;
    if (tail) {
      entries.push(tail);
      ends.set(name, chunk.end + chunk.tail.length);
    }
  }
  return { entries: entries.sort(byStamp), ends, legacy };
}

/** Applies entries in order, each op validated first; an op that fails is skipped with a warning. Returns the ops applied. */
export function applyEntries(run: RunSql, schema: Schema, entries: readonly ParsedEntry[]): number {
  let applied = 0;
  for (const entry of entries) {
    const skip = (error: unknown) => log.warn(`skipping op of ${entry.id}: ${errorMessage(error)}`);
    const valid = entry.ops.filter((op) => {
      try {
        schema.validate(op);
        return true;
      } catch (error) {
        skip(error);
        return false;
      }
    });
    applyOps(run, valid, (_op, error) => skip(error));
    applied += valid.length;
  }
  return applied;
}
