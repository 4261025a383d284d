/**
 * A damaged `grimoire.db` is never silently replaced: it is moved aside, with its -wal and -shm,
 * as `grimoire.db.broken-<time>` (SQLite still finds its WAL by that name), and a message names
 * both files and what was lost; the store then starts a new file. Which file is damaged:
 * - an empty one (0 bytes) other than the one a claim just made (store.ts marks it with the
 *   modification time 0: SQLite's first write moves it on): SQLite would treat it as a new
 *   database and delete its WAL, records and all, so it is judged before SQLite opens it;
 * - one SQLite cannot read (a header that is not SQLite's) or whose `PRAGMA quick_check` fails (a
 *   truncated file, a garbage page), judged when it is opened, before anything is served.
 * When it cannot be moved (a read-only folder), the store refuses to open, naming the command that
 * moves it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logger } from '../log.js';
import { syncDir } from './journal.js';
import { errorCode } from './write-failure.js';

const log = logger('store');

/** The database file cannot be read: why, in words. */
export class DamagedStoreError extends Error {}

/** The modification time a claim gives the empty file it creates (no write ever leaves it so). */
const CLAIMED_MTIME = 0;

/**
 * Creates the empty file a claim holds the data dir with, marked as never written: made and
 * marked under another name, then renamed in (the caller holds the lock), so that no process sees
 * it empty and unmarked.
 */
export function createClaimed(file: string): void {
  const temp = `${file}.${process.pid}.claim`;
  fs.closeSync(fs.openSync(temp, 'w'));
  fs.utimesSync(temp, CLAIMED_MTIME, CLAIMED_MTIME);
  fs.renameSync(temp, file);
}

const sizeOf = (file: string): number | undefined => fs.statSync(file, { throwIfNoEntry: false })?.size;

/** Why the file is damaged before SQLite opens it (an empty file that held something), else undefined. */
export function emptiedFile(file: string): string | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat || stat.size > 0) return undefined;
  const wal = sizeOf(`${file}-wal`) ?? 0;
  if (stat.mtimeMs === CLAIMED_MTIME && wal === 0) return undefined;
  return `it is empty (0 bytes, last changed ${stat.mtime.toISOString()})${wal > 0 ? `, its -wal holds ${wal} bytes` : ''}`;
}

/** Whether an error of opening or reading the file says it is damaged (SQLITE_CORRUPT, SQLITE_NOTADB). */
export function isDamage(error: unknown): boolean {
  if (error instanceof DamagedStoreError) return true;
  const code = errorCode(error) ?? '';
  return (
    /^SQLITE_(CORRUPT|NOTADB)/.test(code) ||
    /database disk image is malformed|file is not a database/i.test(String((error as Error)?.message))
  );
}

/**
 * Moves `file` (with its -wal, -shm) aside as `<file>.broken-<time>` and says so; the caller holds
 * the data dir's lock and has checked that `file` is still the one judged damaged. Throws, naming
 * the command that does it, when it cannot be moved.
 */
export function moveAside(file: string, reason: string): string {
  const aside = `${file}.broken-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const bytes = sizeOf(file) ?? 0;
  const moved: string[] = [];
  try {
    for (const suffix of ['-wal', '-shm', '']) {
      if (!fs.existsSync(`${file}${suffix}`)) continue;
      fs.renameSync(`${file}${suffix}`, `${aside}${suffix}`);
      if (suffix) moved.push(`${path.basename(aside)}${suffix} (${sizeOf(`${aside}${suffix}`)} bytes)`);
    }
    syncDir(path.dirname(file));
  } catch (error) {
    throw new Error(
      `store: ${file} is damaged (${reason}) and could not be moved aside (${(error as Error).message}); ` +
        `stop every Grimoire on this folder and run: mv ${JSON.stringify(file)} ${JSON.stringify(aside)}`,
    );
  }
  const kept = moved.length ? ` with ${moved.join(', ')}` : '';
  const lost =
    bytes === 0
      ? `No record can be read from it: the records it held are lost unless you have a backup of ` +
        `it` +
        `${moved.length ? ' (the last ones written are in its kept -wal, which needs the file it belonged to)' : ''}`
      : `Its records are in the kept file; to read what is left of them: sqlite3 ${JSON.stringify(aside)} .recover > recovered.sql`;
  const message =
    `store: ${file} is damaged (${reason}): moved aside as ${aside} (${bytes} bytes)${kept}; ` +
    `a new, empty ${path.basename(file)} is used. ${lost}`;
  log.warn(message);
  return message;
}

/** The file's identity (not its content, which opening it may touch), to check that the file moved aside is the one judged damaged. */
export function identity(file: string): string | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat && `${stat.dev}:${stat.ino}`;
}
