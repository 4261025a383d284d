/**
 * Secrets a spell refers to as `${secret:NAME}` instead of holding them: one file per secret, mode
 * 0600, in the `secrets` folder (mode 0700) of Grimoire's data folder, outside every workspace.
 * "Route Through Grimoire" writes them (the extension), the gateway reads them. Node built-ins only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readPrivateFile } from './private-file.js';

/** No path separator, no leading dot: a name is always one file directly in the folder. */
export const SECRET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const MAX_BYTES = 64 * 1024;

export function secretsFolder(dataDir: string): string {
  return path.join(dataDir, 'secrets');
}

export type SecretRead = { ok: true; value: string } | { ok: false; message: string };

/** The secret's value (one trailing newline dropped); refused when the file is not the user's alone. */
export function readSecret(folder: string, name: string): SecretRead {
  if (!SECRET_NAME.test(name))
    return {
      ok: false,
      message: `\${secret:${name}} is not a secret name (letters, digits, "_", "." and "-", no path)`,
    };
  const file = path.join(folder, name);
  const read = readPrivateFile(file, MAX_BYTES, false);
  if (read.ok) return { ok: true, value: read.text.replace(/\r?\n$/, '') };
  switch (read.reason) {
    case 'unreadable':
      return {
        ok: false,
        message:
          read.code === 'ENOENT'
            ? `secret ${name} is not set: write it into ${file} (mode 0600)`
            : `secret ${name}: ${file} cannot be read (${read.code})`,
      };
    case 'not-a-file':
      return { ok: false, message: `secret ${name}: ${file} is not a plain file (a link or a folder is not read)` };
    case 'shared':
      return {
        ok: false,
        message: `secret ${name}: ${file} can be read by others (mode ${read.mode.toString(8)}): run chmod 600 on it`,
      };
    case 'other-owner':
      return {
        ok: false,
        message: `secret ${name}: ${file} belongs to another user (uid ${read.uid}): it must be this user's own, mode 0600`,
      };
    case 'too-large':
      return { ok: false, message: `secret ${name}: ${file} has ${read.size} bytes; a secret is at most ${MAX_BYTES}` };
  }
}

/** Writes a new secret file (never over an existing one): mode 0600 from its creation, in a 0700 folder. Returns its path. */
export function writeSecret(folder: string, name: string, value: string): string {
  if (!SECRET_NAME.test(name)) throw new Error(`"${name}" is not a secret name`);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') fs.chmodSync(folder, 0o700);
  const file = path.join(folder, name);
  const fd = fs.openSync(
    file,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  try {
    fs.writeFileSync(fd, value);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return file;
}
