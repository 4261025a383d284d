/**
 * A data dir in the journaled format (the sql.js store's: `grimoire.sqlite` snapshot plus
 * `journals/*.jsonl`) becomes a database file the first time a real SQLite opens it: the snapshot
 * (itself a SQLite file) is copied, migrated, and every journal entry past its watermarks applied in
 * stamp order, into a temporary file that is synced and then linked in as `grimoire.db` (a link
 * fails when the name exists: of two processes importing at once, one wins, the other's copy is
 * dropped). The old files are then moved into `journaled-store/`, so nothing reads them again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { errorMessage, logger } from '../log.js';
import { journalOwner, listJournals, parseEntry, readJournal, syncDir, type ParsedEntry } from './journaled/journal.js';
import { migrate } from './migrations.js';
import { applyOps, Schema } from './ops.js';
import { isAlive } from './journaled/pids.js';
import type { SqlDatabase, SqlEngine } from './sql-surface.js';

const log = logger('store');
export const LEGACY_SNAPSHOT = 'grimoire.sqlite';
export const LEGACY_JOURNALS = 'journals';
/** Where the journaled format's files go once imported. */
export const LEGACY_ASIDE = 'journaled-store';

const byStamp = (a: ParsedEntry, b: ParsedEntry): number =>
  a.ts - b.ts || (a.journal < b.journal ? -1 : a.journal > b.journal ? 1 : 0) || a.seq - b.seq;

const exists = (file: string): boolean => fs.existsSync(file);

/** Whether `dataDir` holds the journaled format and no database file yet. */
export function holdsLegacyOnly(dataDir: string, file: string): boolean {
  if (exists(file)) return false;
  const journals = path.join(dataDir, LEGACY_JOURNALS);
  return exists(path.join(dataDir, LEGACY_SNAPSHOT)) || (exists(journals) && listJournals(journals).length > 0);
}

/** A live process still writing the journaled format (an older Grimoire, or one on sql.js): its pid. */
export function liveLegacyWriter(dataDir: string): number | undefined {
  const journals = path.join(dataDir, LEGACY_JOURNALS);
  if (!exists(journals)) return undefined;
  for (const name of listJournals(journals)) {
    const pid = journalOwner(name);
    if (pid !== null && pid !== process.pid && isAlive(pid)) return pid;
  }
  return undefined;
}

/** Imports the journaled format into `file` when the dir holds it and `file` does not exist. */
export function importLegacy(dataDir: string, file: string, engine: SqlEngine): void {
  if (!holdsLegacyOnly(dataDir, file)) return;
  const writer = liveLegacyWriter(dataDir);
  if (writer !== undefined) {
    throw new Error(`store: process ${writer} still writes this data dir's journals (an older Grimoire, or one on sql.js); close it, then open the store again to move the data into ${path.basename(file)}`);
  }
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.import`;
  try {
    const rows = build(dataDir, temp, engine);
    const handle = fs.openSync(temp, 'r+');
    try {
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
    try {
      fs.linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return; // another process imported it first
      throw error;
    }
    syncDir(dataDir);
    log.info(`moved the journaled store into ${path.basename(file)} (${rows} journaled ops applied); its files are in ${LEGACY_ASIDE}/`);
    moveAside(dataDir);
  } finally {
    fs.rmSync(temp, { force: true });
    fs.rmSync(`${temp}-journal`, { force: true });
  }
}

/** Builds the imported database in `temp`; returns the number of journaled ops applied. */
function build(dataDir: string, temp: string, engine: SqlEngine): number {
  const snapshot = path.join(dataDir, LEGACY_SNAPSHOT);
  if (exists(snapshot)) fs.copyFileSync(snapshot, temp);
  let db = open(engine, temp);
  if (exists(snapshot) && !intact(db)) {
    log.warn(`snapshot ${snapshot} is unreadable; importing its journals alone (it stays in ${LEGACY_ASIDE}/)`);
    db.close();
    fs.rmSync(temp, { force: true });
    db = open(engine, temp);
  }
  try {
    migrate(db);
    const schema = new Schema(db);
    const watermarks = new Map<string, number>();
    for (const [journal, offset] of db.exec('SELECT journal, offset FROM journal_watermarks')[0]?.values ?? []) watermarks.set(String(journal), Number(offset));
    const entries: ParsedEntry[] = [];
    const journals = path.join(dataDir, LEGACY_JOURNALS);
    for (const name of exists(journals) ? listJournals(journals) : []) {
      const chunk = readJournal(journals, name, watermarks.get(name) ?? 0);
      entries.push(...chunk.entries);
      // Its owner is gone: a whole unterminated last line is an entry, a torn one never will be.
      const tail = chunk.tail.length > 0 ? parseEntry(chunk.tail.toString('utf8'), name, 'unterminated last line') : null;
      if (tail) entries.push(tail);
    }
    entries.sort(byStamp);
    let applied = 0;
    db.exec('BEGIN');
    for (const entry of entries) {
      const valid = entry.ops.filter((op) => {
        try {
          schema.validate(op);
          return true;
        } catch (error) {
          log.warn(`skipping op of ${entry.id}: ${errorMessage(error)}`);
          return false;
        }
      });
      applyOps((sql, params) => db.run(sql, params), valid, (_op, error) => log.warn(`skipping op of ${entry.id}: ${errorMessage(error)}`));
      applied += valid.length;
    }
    db.exec('DELETE FROM journal_watermarks');
    db.exec('COMMIT');
    return applied;
  } finally {
    db.close();
  }
}

function open(engine: SqlEngine, file: string): SqlDatabase {
  const db = engine.openFile!(file);
  db.exec('PRAGMA journal_mode = DELETE');
  return db;
}

function intact(db: SqlDatabase): boolean {
  try {
    return db.exec('PRAGMA quick_check')[0]?.values[0]?.[0] === 'ok';
  } catch {
    return false;
  }
}

/** The journaled format's files, out of the way (kept: nothing is deleted by an upgrade). */
function moveAside(dataDir: string): void {
  const aside = path.join(dataDir, LEGACY_ASIDE);
  fs.mkdirSync(aside, { recursive: true });
  for (const name of fs.readdirSync(dataDir)) {
    if (name === LEGACY_SNAPSHOT || name === LEGACY_JOURNALS || name.startsWith(`${LEGACY_SNAPSHOT}.`) || name === 'grimoire.changes' || name === 'compact.lock') {
      try {
        fs.renameSync(path.join(dataDir, name), path.join(aside, name));
      } catch (error) {
        log.warn(`could not move ${name} into ${LEGACY_ASIDE}/: ${errorMessage(error)}`);
      }
    }
  }
}
