/**
 * The admin token (the one REST credential that approves tool changes and launches, see
 * users/identity.ts): from a file only its owner can read (`--admin-token-file`,
 * GRIMOIRE_ADMIN_TOKEN_FILE), or from GRIMOIRE_ADMIN_TOKEN. The file keeps it out of the
 * gateway's own environment, which every process of the same user can read (/proc/<pid>/environ).
 */
import { readPrivateFile } from '../../shared/private-file.js';
import { UsageError } from './args.js';

const ADMIN_TOKEN_MIN = 32;
const FILE_MAX_BYTES = 4096;

export function adminToken(file: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const from = file ?? env.GRIMOIRE_ADMIN_TOKEN_FILE;
  if (from && env.GRIMOIRE_ADMIN_TOKEN)
    throw new UsageError(
      'Give the admin token once: in a file (--admin-token-file, GRIMOIRE_ADMIN_TOKEN_FILE) or in GRIMOIRE_ADMIN_TOKEN, not both.',
    );
  const value = (from ? readTokenFile(from) : env.GRIMOIRE_ADMIN_TOKEN)?.trim();
  if (!value) {
    if (from)
      throw new UsageError(
        `The admin token file ${from} is empty: write a token of at least ${ADMIN_TOKEN_MIN} random ` +
          `characters into it (openssl rand -base64 32).`,
      );
    return undefined;
  }
  const where = from ? `The admin token in ${from}` : 'GRIMOIRE_ADMIN_TOKEN';
  if (value.length < ADMIN_TOKEN_MIN)
    throw new UsageError(
      `${where} is too short: use at least ${ADMIN_TOKEN_MIN} random characters (openssl rand -base64 32).`,
    );
  return value;
}

/** The file's text, refused when anyone but its owner (this user) may read or write it. */
function readTokenFile(file: string): string {
  const read = readPrivateFile(file, FILE_MAX_BYTES, true);
  if (read.ok) return read.text;
  switch (read.reason) {
    case 'unreadable':
      throw new UsageError(`Cannot read the admin token file ${file}: ${read.code}.`);
    case 'not-a-file':
      throw new UsageError(`The admin token file ${file} is not a regular file.`);
    case 'shared':
      throw new UsageError(
        `The admin token file ${file} can be read or written by others (mode ` +
          `${read.mode.toString(8).padStart(4, '0')}): a token others can read is refused. ` +
          `Run chmod 600 ${file}, then start again.`,
      );
    case 'other-owner':
      throw new UsageError(
        `The admin token file ${file} belongs to another user (uid ${read.uid}): it must be this user's own, mode 0600.`,
      );
    case 'too-large':
      throw new UsageError(
        `The admin token file ${file} holds ${read.size} bytes: a token is one line of at most ${FILE_MAX_BYTES} bytes.`,
      );
  }
}
