/**
 * The sql.js store's snapshot file: read back (a corrupt one moved aside), replaced atomically (temp file,
 * fsync, rename, directory fsync).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage, logger } from '../log.js';
import { syncDir } from './journal.js';
import { rowsOf, type ImageDatabase, type ImageEngine } from './sql-surface.js';

const log = logger('store');

/** The snapshot in memory (empty when there is none); one that does not read back is moved aside under a dated name. */
export function readSnapshot(engine: ImageEngine, file: string): ImageDatabase {
  if (!fs.existsSync(file)) return engine.open();
  let image: ImageDatabase | undefined;
  try {
    image = engine.open(fs.readFileSync(file));
    const check = rowsOf<{ quick_check: string }>(image, 'PRAGMA quick_check')[0]?.quick_check;
    if (check !== 'ok') throw new Error(`quick_check: ${String(check)}`);
    return image;
  } catch (error) {
    image?.close();
    const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(file, aside);
    log.warn(
      `snapshot ${file} is unreadable (${errorMessage(error)}); moved aside to ${path.basename(aside)}, loading the journals alone`,
    );
    return engine.open();
  }
}

export function writeSnapshot(file: string, bytes: Uint8Array): void {
  const temp = `${file}.tmp-${process.pid}`;
  try {
    const fd = fs.openSync(temp, 'w');
    try {
      for (let written = 0; written < bytes.length;)
        written += fs.writeSync(fd, bytes, written, bytes.length - written);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } finally {
    fs.rmSync(temp, { force: true });
  }
  syncDir(path.dirname(file));
}
