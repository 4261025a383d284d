/**
 * Replacing a user's file without changing what it is: the new bytes go to the file a symlink
 * points at (the link stays), with the file's own mode, through a temporary file that is created
 * exclusively inside a fresh folder only this user can enter (mkdtemp: random name, mode 0700), so
 * that nothing planted beside the file (a symlink named like the temporary) is ever written
 * through. The rename is atomic: a reader sees the old file or the new one. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { byteSize } from '../shared/preview.js';
import { DEFAULT_FILE_BYTES, DEFAULT_FILE_LIMITS, readFileBytes } from '../shared/safe-read.js';

/**
 * Past this size an mcp.json is not edited: the edit is synchronous on the extension host, and the
 * gateway reads no larger config by default (so no power comes from it to route).
 */
export const MAX_EDIT_BYTES = DEFAULT_FILE_BYTES;

export type ReadResult = { ok: true; text: string; bytes: Buffer } | { ok: false; message: string };

/**
 * Reads a config file to edit it: refused, with the reason, when it is not a plain file or is larger
 * than MAX_EDIT_BYTES. The gateway's safe read: a FIFO put in its place is refused, never waited on
 * (the extension host would hang).
 */
export function readForEdit(file: string): ReadResult {
  const read = readFileBytes(file, { ...DEFAULT_FILE_LIMITS, fileBytes: MAX_EDIT_BYTES });
  if (read.ok) return { ok: true, bytes: read.bytes, text: read.bytes.toString('utf8') };
  if (read.reason === 'too-large' && read.size !== undefined) {
    return {
      ok: false,
      message:
        `${file} has ${byteSize(read.size)}; Grimoire edits an mcp.json of up to ` +
        `${byteSize(MAX_EDIT_BYTES)}: move the entry by hand`,
    };
  }
  return { ok: false, message: `${file}: ${read.message}` };
}

/** The file holds exactly `expected` now (read as readForEdit reads: a file that cannot be read so does not). */
export function holds(file: string, expected: Buffer | string): boolean {
  const read = readForEdit(file);
  return read.ok && read.bytes.equals(typeof expected === 'string' ? Buffer.from(expected) : expected);
}

/**
 * Replaces the file (or the file its symlink points to) with `data`, keeping its mode. `unchanged`
 * is asked right before the rename: when it returns false (another writer saved meanwhile), the
 * file is left as it is and false is returned.
 */
export function replaceFile(file: string, data: string | Buffer, unchanged: () => boolean = () => true): boolean {
  const target = fs.realpathSync(file);
  const mode = fs.statSync(target).mode & 0o7777;
  const folder = fs.mkdtempSync(path.join(path.dirname(target), '.grimoire-edit-'));
  const temp = path.join(folder, path.basename(target));
  try {
    createFile(temp, data, mode);
    if (!unchanged()) return false;
    fs.renameSync(temp, target);
    return true;
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** Creates a new file (never over anything, never through a link) with `mode`. */
export function createFile(file: string, data: string | Buffer, mode: number): void {
  const fd = fs.openSync(
    file,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0),
    mode,
  );
  try {
    fs.writeFileSync(fd, data);
    fs.fchmodSync(fd, mode);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Creates `folder` and its missing parents; returns those it created, outermost first (the undo removes them when empty). */
export function makeFolders(folder: string, mode = 0o777): string[] {
  const missing: string[] = [];
  for (let dir = path.resolve(folder); !fs.existsSync(dir); dir = path.dirname(dir)) missing.unshift(dir);
  for (const dir of missing) fs.mkdirSync(dir, { mode });
  return missing;
}

/** Removes the folders (innermost first) that are empty now; the others stay. */
export function removeEmptyFolders(folders: readonly string[]): string[] {
  const removed: string[] = [];
  for (const dir of [...folders].reverse()) {
    try {
      fs.rmdirSync(dir);
      removed.push(dir);
    } catch {
      // Not empty, or gone already: left as it is.
    }
  }
  return removed;
}
