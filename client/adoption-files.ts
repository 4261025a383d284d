/**
 * "Route Through Grimoire Alone" on disk, and its undo. VS Code has no setting or API that turns off
 * one server of its mcp.json for its agent (only its UI can, and keeps that to itself), so the server
 * moves: its entry leaves the mcp.json by one minimal text edit (client/mcp-json-edit.ts) and becomes
 * a spell file. Before that the whole mcp.json is copied, byte for byte, to a 0600 backup, and a
 * literal secret of the entry (client/entry-secrets.ts) goes to a 0600 file of Grimoire's secrets
 * folder that the spell names (`${secret:NAME}`): no secret is copied into the workspace. The
 * record of the move lets the undo write the backup back when the file is unchanged since, or
 * re-insert the entry's own text.
 * Every step is undone when a later one fails. No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import type { SpellKeywordsParams } from '../protocol/extension-methods.js';
import { readSecret, secretsFolder, writeSecret } from '../shared/secret-files.js';
import { inferWorkspace } from '../shared/config-folder.js';
import { normalizeName } from '../shared/power-name.js';
import { shortHash } from '../shared/hash.js';
import { ensureAdoptionsDir, readRecords, updateRecords, type Adoption } from './adoption-records.js';
import { createFile, holds, makeFolders, readForEdit, removeEmptyFolders, replaceFile } from './file-write.js';
import { withSecretRefs } from './entry-secrets.js';
import { reinsertEntry, removeEntry } from './mcp-json-edit.js';
import {
  keywordQuery,
  mcpEntries,
  spellFileName,
  spellFromMcpEntry,
  type KnownServer,
  type McpEntry,
} from './spell-template.js';

export { adoptionsDir, readRecords, type Adoption } from './adoption-records.js';

export type AdoptionPlan =
  | { ok: true; power: string; mcpFile: string; key: string; entry: McpEntry; spellFile: string }
  | { ok: false; message: string };

/** What the gateway knows of the power, written into the spell (the mcp.json has none of it). */
export interface PowerWords extends KnownServer {
  /** From the gateway (protocol.spellKeywords), asked with adoptionKeywordQuery(plan, known). */
  keywords: readonly string[];
}

/** Routing did not happen: nothing it wrote is left. `stale`: the entry changed since the user consented (ask again). */
export class AdoptionError extends Error {
  constructor(
    message: string,
    readonly stale = false,
  ) {
    super(message);
  }
}

/** Where the spell goes: the workspace's .grimoire/ for a workspace mcp.json, the Grimoire home for the user's. */
export function spellFolderFor(mcpFile: string, grimoireHome: string): string {
  const workspace = inferWorkspace(mcpFile);
  return workspace ? path.join(workspace, '.grimoire') : grimoireHome;
}

/** Finds the power's entry and says why it cannot move, if it cannot. */
export function planAdoption(power: string, mcpFile: string, grimoireHome: string): AdoptionPlan {
  const read = readForEdit(mcpFile);
  if (!read.ok) return read;
  const entry = mcpEntries(mcpFile, read.text).find((e) => normalizeName(e.key) === power);
  if (!entry) return { ok: false, message: `${mcpFile} has no server that becomes the power "${power}".` };
  const raw = JSON.stringify(entry.config);
  if (raw.includes('${input:'))
    return {
      ok: false,
      message:
        `"${entry.key}" asks VS Code for an input (\${input:...}), which a spell cannot prompt for: ` +
        `write the spell by hand with "Grimoire: New Spell File...".`,
    };
  if (entry.config.envFile !== undefined)
    return {
      ok: false,
      message: `"${entry.key}" reads an envFile, which a spell does not: write the spell by hand with "Grimoire: New Spell File...".`,
    };
  const spellFile = path.join(spellFolderFor(mcpFile, grimoireHome), spellFileName(power));
  if (fs.existsSync(spellFile)) return { ok: false, message: `${spellFile} already exists: move or rename it first.` };
  return { ok: true, power, mcpFile, key: entry.key, entry, spellFile };
}

/**
 * What the gateway is asked for the spell's keywords: of the entry as the spell will have it, its
 * literal secrets out (their references name no package), so that a secret never becomes a keyword.
 */
export function adoptionKeywordQuery(
  plan: Extract<AdoptionPlan, { ok: true }>,
  known: KnownServer,
): SpellKeywordsParams {
  return keywordQuery(
    { ...plan.entry, config: withSecretRefs(plan.entry.config, (name) => `\${secret:${name}}`) },
    known,
  );
}

/** A step done, and how to take it back. */
type Undo = () => void;

/**
 * Backup, secrets, spell, then the entry out of the mcp.json as it is at that moment (the entry must
 * still be what the user consented to), the record last. On any failure every step is taken back
 * and an AdoptionError says why.
 */
export function adopt(
  plan: Extract<AdoptionPlan, { ok: true }>,
  words: PowerWords,
  dataDir: string,
  now = new Date(),
): Adoption & { recordsSetAside?: string } {
  const done: Undo[] = [];
  try {
    const first = currentEntry(plan);
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    const backupFile = path.join(ensureAdoptionsDir(dataDir), `${stamp}-${plan.power}-mcp.json`);
    createFile(backupFile, first.bytes, 0o600);
    done.push(() => fs.rmSync(backupFile, { force: true }));

    const secretFiles: string[] = [];
    const config = withSecretRefs(plan.entry.config, (name, value) => {
      const stored = storeSecret(secretsFolder(dataDir), `${plan.power}.${name}`, value);
      if (stored.created) {
        secretFiles.push(stored.file);
        done.push(() => fs.rmSync(stored.file, { force: true }));
      }
      return `\${secret:${path.basename(stored.file)}}`;
    });
    const spell = spellFromMcpEntry(
      { ...plan.entry, config },
      {
        known: { description: words.description, toolNames: words.toolNames },
        keywords: words.keywords,
        header: [
          `# Moved from ${displayName(plan.mcpFile)} by "Grimoire: Route Through Grimoire Alone", ` +
            `so that VS Code no longer offers it to the agent directly.`,
          '# "Grimoire: Undo Routing Through Grimoire" puts the entry back.',
          ...(secretFiles.length
            ? [
                `# Its secrets are not in this file: \${secret:...} reads them from ${secretsFolder(dataDir)} (mode 0600).`,
              ]
            : []),
        ],
      },
    );
    const createdFolders = makeFolders(path.dirname(plan.spellFile));
    done.push(() => removeEmptyFolders(createdFolders));
    createFile(plan.spellFile, spell, 0o644);
    done.push(() => fs.rmSync(plan.spellFile, { force: true }));

    // Against the file as it is now; a save by another writer meanwhile is read again, never lost.
    let current = first;
    let moved: { text: string; removed: Adoption['removed'] } | undefined;
    for (let attempt = 0; attempt < 3 && !moved; attempt += 1) {
      if (attempt > 0) current = currentEntry(plan);
      const removal = removeEntry(current.text, plan.key);
      if (!removal.ok) throw new AdoptionError(`${plan.mcpFile}: ${removal.message}`);
      const seen = current.bytes;
      if (replaceFile(plan.mcpFile, removal.text, () => holds(plan.mcpFile, seen))) moved = removal;
    }
    if (!moved) throw new AdoptionError(`${plan.mcpFile} kept changing while Grimoire edited it: try again.`);
    const written = moved.text;
    const before = current.bytes;
    done.push(() => void replaceFile(plan.mcpFile, before, () => holds(plan.mcpFile, written)));

    const adoption: Adoption = {
      power: plan.power,
      mcpFile: plan.mcpFile,
      key: plan.key,
      entry: plan.entry.config,
      removed: moved.removed,
      afterHash: shortHash(written),
      spellFile: plan.spellFile,
      spellHash: shortHash(spell),
      backupFile: current.bytes.equals(first.bytes) ? backupFile : backupOf(current.bytes, backupFile, done),
      createdFolders,
      secretFiles,
      at: now.toISOString(),
    };
    const { setAside } = updateRecords(
      dataDir,
      (records) => [...records.filter((a) => !sameEntry(a, adoption)), adoption],
      now,
    );
    return { ...adoption, ...(setAside ? { recordsSetAside: setAside } : {}) };
  } catch (error) {
    for (const undo of done.reverse()) {
      try {
        undo();
      } catch {
        // Each step is taken back on its own: one that fails does not keep the others.
      }
    }
    if (error instanceof AdoptionError) throw error;
    throw new AdoptionError(
      `nothing was changed: ` +
        ((error as NodeJS.ErrnoException).code === 'EACCES' || (error as NodeJS.ErrnoException).code === 'EPERM'
          ? `a file or folder cannot be written (${(error as Error).message})`
          : `${(error as Error).message}`),
    );
  }
}

/** A secret file of that name holding the same value is used as it is (an earlier move kept it); another value gets a name of its own. */
function storeSecret(folder: string, name: string, value: string): { file: string; created: boolean } {
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    const existing = readSecret(folder, candidate);
    if (existing.ok && existing.value === value) return { file: path.join(folder, candidate), created: false };
    if (!fs.existsSync(path.join(folder, candidate)))
      return { file: writeSecret(folder, candidate, value), created: true };
  }
}

/** The file changed between the first read and the edit: the backup is of what was edited. */
function backupOf(bytes: Buffer, firstBackup: string, done: Undo[]): string {
  const file = firstBackup.replace(/-mcp\.json$/, '-mcp.edited.json');
  createFile(file, bytes, 0o600);
  done.push(() => fs.rmSync(file, { force: true }));
  fs.rmSync(firstBackup, { force: true });
  return file;
}

/** The file now, with the entry as the user consented to it; else a stale AdoptionError. */
function currentEntry(plan: Extract<AdoptionPlan, { ok: true }>): { text: string; bytes: Buffer } {
  const read = readForEdit(plan.mcpFile);
  if (!read.ok) throw new AdoptionError(read.message);
  const now = mcpEntries(plan.mcpFile, read.text).find((e) => e.key === plan.key);
  if (!now) throw new AdoptionError(`"${plan.key}" is no longer in ${plan.mcpFile}.`, true);
  if (JSON.stringify(now.config) !== JSON.stringify(plan.entry.config))
    throw new AdoptionError(`"${plan.key}" changed in ${plan.mcpFile} since you agreed to move it.`, true);
  return { text: read.text, bytes: read.bytes };
}

function displayName(mcpFile: string): string {
  return path.join(path.basename(path.dirname(mcpFile)), path.basename(mcpFile));
}

export interface UndoOutcome {
  /**
   * `exact`: the file was unchanged since the move and is the backup again, byte for byte; `entry`: the
   * entry's own text went back in; `present`: an entry of that key was there already and was left alone.
   */
  restored: 'exact' | 'entry' | 'present';
  /** The spell was edited since the move: it is kept, and named here. */
  keptSpell?: string;
  /** The mcp.json as it was before the move, kept. */
  backupFile: string;
  /** Folders routing had created and the undo removed (empty now). */
  removedFolders: string[];
}

/** Puts the entry back into the mcp.json and removes what routing wrote (a spell edited since is kept). */
export function undoAdoption(adoption: Adoption, dataDir: string): UndoOutcome {
  const restored = putBack(adoption);
  let keptSpell: string | undefined;
  if (fs.existsSync(adoption.spellFile)) {
    const spell = readForEdit(adoption.spellFile);
    if (spell.ok && shortHash(spell.text) === adoption.spellHash) fs.rmSync(adoption.spellFile);
    else keptSpell = adoption.spellFile;
  }
  // A kept spell still reads its secrets.
  if (!keptSpell) for (const file of adoption.secretFiles) fs.rmSync(file, { force: true });
  const removedFolders = removeEmptyFolders(adoption.createdFolders);
  updateRecords(dataDir, (records) => records.filter((a) => !sameEntry(a, adoption)));
  return { restored, ...(keptSpell ? { keptSpell } : {}), backupFile: adoption.backupFile, removedFolders };
}

/** Both records are of the same mcp.json entry. */
function sameEntry(a: Adoption, b: Adoption): boolean {
  return a.mcpFile === b.mcpFile && a.key === b.key;
}

function putBack(adoption: Adoption): UndoOutcome['restored'] {
  if (!fs.existsSync(adoption.mcpFile)) {
    replaceOrCreate(adoption.mcpFile, fs.readFileSync(adoption.backupFile));
    return 'exact';
  }
  const read = readForEdit(adoption.mcpFile);
  if (!read.ok) throw new AdoptionError(read.message);
  if (adoption.afterHash !== undefined && shortHash(read.text) === adoption.afterHash) {
    if (!replaceFile(adoption.mcpFile, fs.readFileSync(adoption.backupFile), () => holds(adoption.mcpFile, read.bytes)))
      throw new AdoptionError(`${adoption.mcpFile} changed while Grimoire put "${adoption.key}" back: try again.`);
    return 'exact';
  }
  if (mcpEntries(adoption.mcpFile, read.text).some((entry) => entry.key === adoption.key)) return 'present';
  const inserted = adoption.removed
    ? reinsertEntry(read.text, adoption.key, adoption.removed)
    : legacyInsert(read.text, adoption);
  if (!inserted.ok)
    throw new AdoptionError(
      `"${adoption.key}" cannot be put back into ${adoption.mcpFile} (${inserted.message}): ` +
        `the whole file as it was is ${adoption.backupFile}.`,
    );
  if (!replaceFile(adoption.mcpFile, inserted.text, () => holds(adoption.mcpFile, read.bytes)))
    throw new AdoptionError(`${adoption.mcpFile} changed while Grimoire put "${adoption.key}" back: try again.`);
  return 'entry';
}

/** A record of an earlier version has the entry's value only: it goes back last, formatted by jsonc-parser. */
function legacyInsert(text: string, adoption: Adoption): { ok: true; text: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return {
    ok: true,
    text: applyEdits(
      text,
      modify(text, ['servers', adoption.key], adoption.entry, {
        formattingOptions: { insertSpaces: true, tabSize: 2, eol },
      }),
    ),
  };
}

/** The mcp.json was deleted since: it comes back as it was, with the usual mode. */
function replaceOrCreate(file: string, bytes: Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  createFile(file, bytes, 0o644);
}

/** The moves not undone yet, oldest first (readRecords also says when the record file is damaged). */
export function adoptions(dataDir: string): Adoption[] {
  return readRecords(dataDir).records;
}
