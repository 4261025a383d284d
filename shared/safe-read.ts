/**
 * The one way the gateway reads a file someone else wrote (spells, imported configs, env files,
 * settings.json): only a regular file (a FIFO, a device, a socket or a symlink to one is refused
 * before it is opened), only up to a size limit, and within a deadline.
 *
 * Reading is synchronous because the registry loads synchronously; the deadline is checked between
 * chunks, so a slow file is given up, but a single read the kernel never returns from (a hung
 * network mount) is not interrupted.
 */
import * as fs from 'node:fs';
import { byteSize } from './preview.js';

/**
 * The largest config or spell file read by default (the `limits.fileBytes` setting's default): the gateway
 * reads no larger one, the extension edits no larger mcp.json.
 */
export const DEFAULT_FILE_BYTES = 256 * 1024;

/** How much of a file is read, and for how long: the `limits` settings' `fileBytes` and `fileReadTimeoutMs` (config/limits-settings.ts). */
export interface FileLimits {
  fileBytes: number;
  fileReadTimeoutMs: number;
}

/** Those settings' defaults, declared here so that this low module needs no settings. */
export const DEFAULT_FILE_LIMITS: FileLimits = { fileBytes: DEFAULT_FILE_BYTES, fileReadTimeoutMs: 2000 };

export type SafeReadFailure = 'missing' | 'not-a-file' | 'too-large' | 'timeout' | 'unreadable';

/** `size`: on 'too-large', the size the file claimed (absent when it grew past the limit while read). */
export type SafeReadRefusal = { ok: false; reason: SafeReadFailure; message: string; fix: string; size?: number };

export type SafeRead = { ok: true; text: string } | SafeReadRefusal;

export type SafeBytes = { ok: true; bytes: Buffer } | SafeReadRefusal;

const CHUNK = 64 * 1024;
const NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

export function readTextFile(file: string, limits: FileLimits = DEFAULT_FILE_LIMITS): SafeRead {
  const read = readFileBytes(file, limits);
  return read.ok ? { ok: true, text: read.bytes.toString('utf8') } : read;
}

/** The same read, as bytes (to compare or copy a file exactly). */
export function readFileBytes(file: string, limits: FileLimits = DEFAULT_FILE_LIMITS): SafeBytes {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    return failure(error);
  }
  if (!stat.isFile()) return notAFile(file, stat);
  if (stat.size > limits.fileBytes) return tooLarge(limits, stat.size);
  let fd: number;
  try {
    // Non-blocking: if the path was swapped for a FIFO since the stat, opening it must not wait for a writer.
    fd = fs.openSync(file, fs.constants.O_RDONLY | NONBLOCK);
  } catch (error) {
    return failure(error);
  }
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) return notAFile(file, opened);
    const deadline = Date.now() + limits.fileReadTimeoutMs;
    const buffer = Buffer.allocUnsafe(Math.min(opened.size, limits.fileBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) return tooLarge(limits);
      const read = fs.readSync(fd, buffer, length, Math.min(CHUNK, buffer.length - length), null);
      if (read === 0) break;
      length += read;
      if (length > limits.fileBytes) return tooLarge(limits);
      if (Date.now() > deadline) {
        return {
          ok: false,
          reason: 'timeout',
          message: `reading the file took longer than ${limits.fileReadTimeoutMs} ms and was given up`,
          fix: 'move the file to a local disk, or raise limits.fileReadTimeoutMs in settings.json',
        };
      }
    }
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch (error) {
    return failure(error);
  } finally {
    fs.closeSync(fd);
  }
}

function failure(error: unknown): SafeReadRefusal {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT')
    return { ok: false, reason: 'missing', message: 'cannot read the file: it does not exist', fix: 'check the path' };
  return {
    ok: false,
    reason: 'unreadable',
    message: `cannot read the file (${code ?? (error as Error).message})`,
    fix: 'check that the file exists and is readable',
  };
}

/** `size` is the size the file claimed; without it, the file grew past the limit while it was read. */
function tooLarge(limits: FileLimits, size?: number): SafeReadRefusal {
  return {
    ok: false,
    reason: 'too-large',
    ...(size === undefined ? {} : { size }),
    message:
      size === undefined
        ? `the file grew past the limit of ${byteSize(limits.fileBytes)} while it was read, and was not read`
        : `the file is ${byteSize(size)}; the limit is ${byteSize(limits.fileBytes)}, so it was not read`,
    fix: 'shorten it, or raise limits.fileBytes in settings.json',
  };
}

function notAFile(file: string, stat: fs.Stats): SafeReadRefusal {
  let what = kindOf(stat);
  try {
    if (fs.lstatSync(file).isSymbolicLink()) what = `a symbolic link to ${fs.readlinkSync(file)} (${what})`;
  } catch {
    // The link vanished meanwhile: the kind of what it pointed to is still the reason.
  }
  return {
    ok: false,
    reason: 'not-a-file',
    message: `it is ${what}, not a regular file, and was not read`,
    fix: 'replace it with a regular file, or remove it from the folder',
  };
}

function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}
