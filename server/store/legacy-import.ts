/**
 * A data dir of the sql.js store (`grimoire.sqlite` snapshot plus `journals/*.jsonl`: this
 * release's one journal, or an earlier release's per-process ones) becomes the database file the
 * first time a real SQLite opens it with no sql.js process on it (store.ts, under the journal
 * lock): the snapshot (itself a SQLite file) is copied, migrated, and every journal entry past its
 * watermarks applied in stamp order (journal-replay.ts), into a temporary file that is synced and
 * then linked in as `grimoire.db`. The old files are then moved into `journaled-store/`, so nothing
 * reads them again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { errorMessage, logger } from '../log.js';
import { JOURNALS, liveLegacyWriter, SNAPSHOT, syncDir } from './journal.js';
import { applyEntries, readJournals, watermarks } from './journal-replay.js';
import { migrate } from './migrations.js';
import { Schema } from './ops.js';
import { rowsOf, runOnce, type SqlDatabase, type SqlEngine } from './sql-surface.js';

const log = logger('store');
/** Where the sql.js store's files go once imported. */
export const LEGACY_ASIDE = 'journaled-store';

/** Whether `dataDir` holds the sql.js store's files. */
export function holdsJournals(dataDir: string): boolean {
  const journals = path.join(dataDir, JOURNALS);
  return (
    fs.existsSync(path.join(dataDir, SNAPSHOT)) ||
    (fs.existsSync(journals) && fs.readdirSync(journals).some((name) => name.endsWith('.jsonl')))
  );
}

/** Imports the sql.js store's files into `file` (which does not exist yet); the caller holds the journal lock. */
export function importLegacy(dataDir: string, file: string, engine: SqlEngine): void {
  const writer = liveLegacyWriter(path.join(dataDir, JOURNALS));
  if (writer !== undefined) {
    throw new Error(
      `store: process ${writer} (an earlier Grimoire) still writes this data dir's journals; ` +
        `close it, then open the store again to move the data into ${path.basename(file)}`,
    );
  }
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.import`;
  try {
    const ops = build(dataDir, temp, engine);
    const handle = fs.openSync(temp, 'r+');
    try {
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
    fs.linkSync(temp, file);
    syncDir(dataDir);
    log.info(
      `moved the sql.js store into ${path.basename(file)} (${ops} journaled ops applied); its files are in ${LEGACY_ASIDE}/`,
    );
    moveAside(dataDir);
  } finally {
    fs.rmSync(temp, { force: true });
    fs.rmSync(`${temp}-journal`, { force: true });
  }
}

/** Builds the imported database in `temp`; returns the number of journaled ops applied. */
function build(dataDir: string, temp: string, engine: SqlEngine): number {
  const snapshot = path.join(dataDir, SNAPSHOT);
  if (fs.existsSync(snapshot)) fs.copyFileSync(snapshot, temp);
  let db = open(engine, temp);
  if (fs.existsSync(snapshot) && !intact(db)) {
    log.warn(`snapshot ${snapshot} is unreadable; importing its journals alone (it stays in ${LEGACY_ASIDE}/)`);
    db.close();
    fs.rmSync(temp, { force: true });
    db = open(engine, temp);
  }
  try {
    migrate(db);
    const { entries } = readJournals(path.join(dataDir, JOURNALS), watermarks(db));
    db.exec('BEGIN');
    const applied = applyEntries((sql, params) => runOnce(db, sql, params), new Schema(db), entries);
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
    return rowsOf<{ quick_check: string }>(db, 'PRAGMA quick_check')[0]?.quick_check === 'ok';
  } catch {
    return false;
  }
}

/** The sql.js store's files, out of the way (kept: nothing is deleted by an upgrade). */
function moveAside(dataDir: string): void {
  const aside = path.join(dataDir, LEGACY_ASIDE);
  fs.mkdirSync(aside, { recursive: true });
  for (const name of fs.readdirSync(dataDir)) {
    if (
      name === SNAPSHOT ||
      name === JOURNALS ||
      name.startsWith(`${SNAPSHOT}.`) ||
      name === 'grimoire.changes' ||
      name === 'compact.lock'
    ) {
      try {
        fs.renameSync(path.join(dataDir, name), path.join(aside, name));
      } catch (error) {
        log.warn(`could not move ${name} into ${LEGACY_ASIDE}/: ${errorMessage(error)}`);
      }
    }
  }
}
