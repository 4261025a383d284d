/**
 * The record of every routing not undone yet (`adoptions.json` in the data folder's `adoptions/`),
 * mode 0600 in a 0700 folder: it holds the entries as they were, secrets included. A file that
 * cannot be read as records is set aside (`adoptions.json.broken-<time>`), never overwritten.
 * No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RemovedEntry } from './mcp-json-edit.js';
import { createFile, replaceFile } from './file-write.js';
import { parseJsonc } from '../shared/jsonc.js';

export interface Adoption {
  power: string;
  /** As the gateway names it (a symlink stays a symlink: writes go to its target). */
  mcpFile: string;
  key: string;
  /** The entry as it was in the mcp.json. */
  entry: Record<string, unknown>;
  /** The entry's own text and neighbours, to put it back when the file changed since (absent in records of earlier versions). */
  removed?: RemovedEntry;
  /**
   * Of the mcp.json as routing left it: while it is unchanged, the undo writes the backup's exact bytes
   * (absent in records of earlier versions).
   */
  afterHash?: string;
  spellFile: string;
  /** Of the spell as written: a spell edited since is never deleted by the undo. */
  spellHash: string;
  /** The whole mcp.json before the move, byte for byte (mode 0600). */
  backupFile: string;
  /** Folders routing created for the spell, outermost first: the undo removes those left empty. */
  createdFolders: string[];
  /** The 0600 files the spell's `${secret:...}` read, made from the entry's literal secrets. */
  secretFiles: string[];
  at: string;
}

export interface Records {
  records: Adoption[];
  /** Why the file could not be read as records (it is set aside by the next write). */
  damaged?: string;
}

export function adoptionsDir(dataDir: string): string {
  return path.join(dataDir, 'adoptions');
}

function recordsFile(dataDir: string): string {
  return path.join(adoptionsDir(dataDir), 'adoptions.json');
}

/** The adoptions folder, made (or tightened) to 0700. */
export function ensureAdoptionsDir(dataDir: string): string {
  const dir = adoptionsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') fs.chmodSync(dir, 0o700);
  return dir;
}

export function readRecords(dataDir: string): Records {
  let text: string;
  try {
    text = fs.readFileSync(recordsFile(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [] };
    return { records: [], damaged: `${recordsFile(dataDir)} cannot be read (${(error as Error).message})` };
  }
  try {
    const records = parseJsonc(text);
    // Records of earlier versions lack the newer fields: what they did not create is nothing to remove.
    if (Array.isArray(records) && records.every(isAdoption))
      return {
        records: records.map((a) => ({
          ...a,
          createdFolders: a.createdFolders ?? [],
          secretFiles: a.secretFiles ?? [],
        })),
      };
    return { records: [], damaged: `${recordsFile(dataDir)} does not hold routing records` };
  } catch (error) {
    return { records: [], damaged: `${recordsFile(dataDir)} is damaged (${(error as Error).message})` };
  }
}

function isAdoption(value: unknown): value is Adoption {
  const a = value as Partial<Adoption> | null;
  return (
    typeof a === 'object' &&
    a !== null &&
    typeof a.power === 'string' &&
    typeof a.mcpFile === 'string' &&
    typeof a.key === 'string' &&
    typeof a.backupFile === 'string' &&
    typeof a.entry === 'object' &&
    a.entry !== null
  );
}

/**
 * Replaces the records with what `change` makes of them (read once). A damaged file is renamed aside
 * first; its new name is returned so that the caller can say where it is.
 */
export function updateRecords(
  dataDir: string,
  change: (records: Adoption[]) => Adoption[],
  now = new Date(),
): { setAside?: string } {
  ensureAdoptionsDir(dataDir);
  const file = recordsFile(dataDir);
  const current = readRecords(dataDir);
  const text = JSON.stringify(change(current.records), null, 2) + '\n';
  let setAside: string | undefined;
  if (current.damaged && fs.existsSync(file)) {
    setAside = `${file}.broken-${now.toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(file, setAside);
  }
  if (fs.existsSync(file)) {
    fs.chmodSync(file, 0o600);
    replaceFile(file, text);
  } else createFile(file, text, 0o600);
  return setAside ? { setAside } : {};
}
