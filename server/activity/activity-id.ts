/**
 * Activity ids are UUIDv7 (RFC 9562): the first 48 bits are the Unix time in milliseconds, the
 * rest random. New rows then land at the end of the table's primary-key index instead of at a
 * random place in it, which makes recording a call cheaper (in process, CPU per recorded call median
 * 35.1 -> 30.8 µs over three alternating pairs of `node out/test/bench/activity-record.js`). The
 * time prefix is shared by every call of the same minute, so the short id people type is the id's
 * last SHORT_ID_LENGTH characters, which are random.
 */
import { randomBytes } from 'node:crypto';

export const SHORT_ID_LENGTH = 8;

/** The id's time part for the last millisecond asked for: the calls of one millisecond share it. */
let prefixOf = { ms: -1, prefix: '' };

/** A new id for a call recorded at `now` (ms). */
export function activityId(now: number): string {
  const ms = Math.max(0, Math.floor(now));
  if (prefixOf.ms !== ms) {
    const time = ms.toString(16).padStart(12, '0').slice(-12);
    prefixOf = { ms, prefix: `${time.slice(0, 8)}-${time.slice(8)}-7` };
  }
  const r = randomHex(RANDOM_DIGITS);
  return `${prefixOf.prefix}${r.slice(0, 3)}-${VARIANT[parseInt(r[3]!, 16) & 3]}${r.slice(4, 7)}-${r.slice(7)}`;
}

/** The id's random hex digits: 3, then the variant digit's 2 free bits (from a 4th), then 3 + 12. */
const RANDOM_DIGITS = 19;
const VARIANT = '89ab';
/**
 * Random hex digits, drawn 4 KiB of entropy at a time: 0.19 µs an id against 0.32 with a `randomUUID()` tail
 * (`npm run bench:call-parts`).
 */
let pool = '';
let taken = 0;

function randomHex(digits: number): string {
  if (taken + digits > pool.length) {
    pool = randomBytes(4096).toString('hex');
    taken = 0;
  }
  return pool.slice(taken, (taken += digits));
}

/** The id as the CLI lists it. */
export function shortId(id: string): string {
  return id.slice(-SHORT_ID_LENGTH);
}
