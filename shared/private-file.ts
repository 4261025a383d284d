/**
 * The one reader of a file that holds a credential (the admin token file, a spell's secret): read
 * only when it is this user's alone. Node built-ins only (the extension reads secrets too).
 */
import * as fs from 'node:fs';

export type PrivateFileRefusal =
  /** Could not be opened: `code` is the errno code (ENOENT when it does not exist). */
  | { reason: 'unreadable'; code: string }
  /** A folder, a FIFO, a device, a socket, or (where links are refused) a symbolic link. */
  | { reason: 'not-a-file' }
  /** Others may read or write it: `mode` is its permission bits. */
  | { reason: 'shared'; mode: number }
  /** It belongs to another user. */
  | { reason: 'other-owner'; uid: number }
  /** Larger than allowed: `size` is its size as opened (or the limit plus one, when it grew while read). */
  | { reason: 'too-large'; size: number };

export type PrivateRead = { ok: true; text: string } | ({ ok: false } & PrivateFileRefusal);

const NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * The text of `file` when it is a regular file this user owns that nobody else may read or write
 * (mode 0600 or stricter; owner and mode are not checked on Windows), of at most `maxBytes` bytes.
 * Every check is made on what was opened, so a file swapped meanwhile is judged as read. Opening
 * never waits (a FIFO in its place is refused, not waited on for a writer); with `followLinks`
 * false a symbolic link is refused instead of followed.
 */
export function readPrivateFile(file: string, maxBytes: number, followLinks: boolean): PrivateRead {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NONBLOCK | (followLinks ? 0 : NOFOLLOW));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    // O_NOFOLLOW on a link: ELOOP (EMLINK on FreeBSD).
    if (!followLinks && (code === 'ELOOP' || code === 'EMLINK')) return { ok: false, reason: 'not-a-file' };
    return { ok: false, reason: 'unreadable', code };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: 'not-a-file' };
    if (process.platform !== 'win32') {
      if ((stat.mode & 0o077) !== 0) return { ok: false, reason: 'shared', mode: stat.mode & 0o777 };
      const uid = process.getuid?.();
      if (uid !== undefined && stat.uid !== uid) return { ok: false, reason: 'other-owner', uid: stat.uid };
    }
    if (stat.size > maxBytes) return { ok: false, reason: 'too-large', size: stat.size };
    // One byte past the limit: a file that grew since the check is seen to have.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes) return { ok: false, reason: 'too-large', size: length };
    return { ok: true, text: buffer.toString('utf8', 0, length) };
  } catch (error) {
    return { ok: false, reason: 'unreadable', code: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  } finally {
    fs.closeSync(fd);
  }
}
