/**
 * `grimoire.changes` (in the data dir): one byte appended by every Store after each commit it makes (a journal line,
 * a compaction). Its (inode, size) is the data dir's change counter: a Store compares it with what
 * it saw last, one stat per query, and lists and reads the journals only when it moved.
 * A file past MAX_BYTES is replaced by a new one-byte file (a new inode, so the move is still seen); a
 * writer whose byte landed in the replaced file writes it again into the new one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const CHANGES_FILE = 'grimoire.changes';
const MAX_BYTES = 1 << 20;
const BYTE = Buffer.from('.');

export class ChangeCounter {
  readonly path: string;
  private fd: number;
  private ino: number;
  /** The counter as this Store last folded it in: everything before it is applied. */
  private seen = '';

  constructor(dir: string) {
    this.path = path.join(dir, CHANGES_FILE);
    this.fd = fs.openSync(this.path, 'a');
    this.ino = fs.fstatSync(this.fd).ino;
  }

  /** The current value; changes whenever any Store on the data dir committed something. */
  current(): string {
    try {
      const s = fs.statSync(this.path);
      return `${s.ino}:${s.size}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
      throw error;
    }
  }

  /** Whether anything was committed since `markSeen`. */
  moved(): boolean {
    return this.current() !== this.seen;
  }

  /** Everything committed up to `value` (read before looking at the journals) is applied. */
  markSeen(value: string): void {
    this.seen = value;
  }

  /**
   * Announces a commit of this Store. When nothing else moved the counter since it was last
   * seen, this Store's own commit does not make it look at the journals again.
   */
  bump(): void {
    const before = this.seen;
    fs.writeSync(this.fd, BYTE);
    let s = fs.statSync(this.path, { throwIfNoEntry: false });
    if (!s || s.ino !== this.ino) {
      // Replaced under us: the byte went to the old file. Announce in the new one.
      this.reopen();
      fs.writeSync(this.fd, BYTE);
      s = fs.statSync(this.path, { throwIfNoEntry: false });
    }
    if (!s) return;
    const [ino, size] = before.split(':');
    if (Number(ino) === s.ino && Number(size) + 1 === s.size) this.seen = `${s.ino}:${s.size}`;
  }

  /** Starts a new one-byte file once this one is large (caller holds the compaction lock). */
  rotateIfLarge(): void {
    if (fs.fstatSync(this.fd).size < MAX_BYTES) return;
    const temp = `${this.path}.new-${process.pid}`;
    fs.writeFileSync(temp, BYTE);
    fs.renameSync(temp, this.path);
    this.reopen();
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private reopen(): void {
    fs.closeSync(this.fd);
    this.fd = fs.openSync(this.path, 'a');
    this.ino = fs.fstatSync(this.fd).ino;
  }
}
