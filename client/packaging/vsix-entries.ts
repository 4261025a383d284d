/**
 * The number of files in a .vsix (a zip), read from its end-of-central-directory record: what vsce
 * reports as "Packaged: … (N files)", its own [Content_Types].xml and extension.vsixmanifest included.
 */
import * as fs from 'node:fs';

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
/** The record ends the file, after a comment of at most 65,535 bytes. */
const MAX_TAIL = EOCD_SIZE + 0xffff;

export function vsixEntries(file: string): number {
  const size = fs.statSync(file).size;
  const length = Math.min(size, MAX_TAIL);
  const tail = Buffer.alloc(length);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, tail, 0, length, size - length);
  } finally {
    fs.closeSync(fd);
  }
  for (let at = length - EOCD_SIZE; at >= 0; at--) {
    if (tail.readUInt32LE(at) === EOCD_SIGNATURE && at + EOCD_SIZE + tail.readUInt16LE(at + 20) === length) return tail.readUInt16LE(at + 10);
  }
  throw new Error(`${file}: not a zip archive (no end-of-central-directory record)`);
}
