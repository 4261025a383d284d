/**
 * A write the store could not commit, named by its real cause (the SQLite result code or the
 * system's error code, and what it says) and the file it was written to, so that whoever answers
 * for the write (a call's record) can say why and where.
 */
import { errorMessage } from '../log.js';

/** SQLite's primary result codes that a write can end with (node:sqlite gives only the number). */
const SQLITE_CODES: Readonly<Record<number, string>> = {
  3: 'SQLITE_PERM',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  26: 'SQLITE_NOTADB',
};

/** The error's code: better-sqlite3's `SQLITE_FULL`, node:sqlite's `errcode` 13 as `SQLITE_FULL`, Node's `ENOSPC`. */
export function errorCode(error: unknown): string | undefined {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return SQLITE_CODES[errcode & 0xff] ?? `SQLITE error ${errcode}`;
  return typeof code === 'string' ? code : undefined;
}

/** What the code means where its message does not say it. */
const MEANING: Readonly<Record<string, string>> = {
  SQLITE_FULL: 'the disk is full',
  ENOSPC: 'the disk is full',
  SQLITE_READONLY: 'the file or its folder is read-only',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  SQLITE_IOERR: 'an I/O error',
  SQLITE_CANTOPEN:
    'it or its -wal/-shm cannot be opened for writing: a read-only folder or file system, or no permission',
  EIO: 'an I/O error',
};

/** SQLITE_IOERR_WRITE: SQLITE_IOERR. */
const primaryOf = (code: string): string => (code.startsWith('SQLITE_') ? code.split('_').slice(0, 2).join('_') : code);

/** Whether the error is the storage's (full, read-only, I/O, damaged), not the write's own (a constraint). */
export function isStorageError(error: unknown): boolean {
  const code = errorCode(error);
  return (
    code !== undefined &&
    (primaryOf(code) in MEANING || ['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_PERM'].includes(primaryOf(code)))
  );
}

/**
 * A storage error as `store: could not write <file> (SQLITE_FULL: database or disk is full; the
 * disk is full)` (`doing`: open), the original as its cause; any other error as it is.
 */
export function writeFailure(file: string, error: unknown, doing: 'write' | 'open' = 'write'): unknown {
  if (!isStorageError(error)) return error;
  const code = errorCode(error)!;
  const message = errorMessage(error);
  const meaning = MEANING[primaryOf(code)];
  const cause = [message.includes(code) ? message : `${code}: ${message}`, meaning].filter(Boolean).join('; ');
  return Object.assign(new Error(`store: could not ${doing} ${file} (${cause})`, { cause: error }), { code });
}
