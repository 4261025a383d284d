/**
 * The admin token (the one REST credential that approves tool changes and launches, see
 * users/identity.ts): from a file only its owner can read (`--admin-token-file`,
 * GRIMOIRE_ADMIN_TOKEN_FILE), or from GRIMOIRE_ADMIN_TOKEN. The file keeps it out of the
 * gateway's own environment, which every process of the same user can read (/proc/<pid>/environ).
 */
import * as fs from 'node:fs';
import { UsageError } from './args.js';

const ADMIN_TOKEN_MIN = 32;
const FILE_MAX_BYTES = 4096;

export function adminToken(file: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const from = file ?? env.GRIMOIRE_ADMIN_TOKEN_FILE;
  if (from && env.GRIMOIRE_ADMIN_TOKEN) throw new UsageError('Give the admin token once: in a file (--admin-token-file, GRIMOIRE_ADMIN_TOKEN_FILE) or in GRIMOIRE_ADMIN_TOKEN, not both.');
  const value = (from ? readTokenFile(from) : env.GRIMOIRE_ADMIN_TOKEN)?.trim();
  if (!value) {
    if (from) throw new UsageError(`The admin token file ${from} is empty: write a token of at least ${ADMIN_TOKEN_MIN} random characters into it (openssl rand -base64 32).`);
    return undefined;
  }
  const where = from ? `The admin token in ${from}` : 'GRIMOIRE_ADMIN_TOKEN';
  if (value.length < ADMIN_TOKEN_MIN) throw new UsageError(`${where} is too short: use at least ${ADMIN_TOKEN_MIN} random characters (openssl rand -base64 32).`);
  return value;
}

/** The file's text, refused when anyone but its owner (this user) may read or write it. */
function readTokenFile(file: string): string {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    throw new UsageError(`Cannot read the admin token file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`The admin token file ${file} is not a regular file.`);
    if (process.platform !== 'win32') {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
      if (stat.mode & 0o077) throw new UsageError(`The admin token file ${file} can be read or written by others (mode ${mode}): a token others can read is refused. Run chmod 600 ${file}, then start again.`);
      const uid = process.getuid?.();
      if (uid !== undefined && stat.uid !== uid) throw new UsageError(`The admin token file ${file} belongs to another user (uid ${stat.uid}): it must be this user's own, mode 0600.`);
    }
    if (stat.size > FILE_MAX_BYTES) throw new UsageError(`The admin token file ${file} holds ${stat.size} bytes: a token is one line of at most ${FILE_MAX_BYTES} bytes.`);
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}
