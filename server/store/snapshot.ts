/** The sql.js store's snapshot file, replaced atomically: a temp file, fsync, rename, directory fsync. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { syncDir } from './journal.js';

export function writeSnapshot(file: string, bytes: Uint8Array): void {
  const temp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const fd = fs.openSync(temp, 'wx');
    try {
      for (let written = 0; written < bytes.length; ) written += fs.writeSync(fd, bytes, written, bytes.length - written);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    renameRetrying(temp, file);
  } finally {
    fs.rmSync(temp, { force: true });
  }
  syncDir(path.dirname(file));
}

/** Windows refuses to rename over a file another process has open for a moment: retry briefly. */
function renameRetrying(from: string, to: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= 10 || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

/** A snapshot that does not read back as a database, moved aside under a dated name; returns it. */
export function moveCorrupt(file: string): string {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  fs.renameSync(file, aside);
  return aside;
}
