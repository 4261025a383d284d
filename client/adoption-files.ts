/**
 * "Route Through Grimoire Alone" on disk, and its undo. VS Code has no setting or API that turns off
 * one server of its mcp.json for its agent (only its UI can, and keeps that to itself), so the server
 * moves: its entry leaves the mcp.json (formatting and comments kept) and becomes a spell file, the
 * whole mcp.json is copied to a backup first, and a record in the data folder lets the undo put the
 * entry back exactly. The spell is written before the entry leaves, so the power never disappears.
 * No `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyEdits, modify, type FormattingOptions } from 'jsonc-parser';
import { normalizeName } from '../server/powers/import-common.js';
import { inferWorkspace } from '../server/powers/import-vscode.js';
import { parseJsonc } from '../server/powers/jsonc.js';
import { shortHash } from '../server/util/hash.js';
import { mcpEntries, spellFileName, spellFromMcpEntry, type McpEntry } from './spell-template.js';

export interface Adoption {
  power: string;
  mcpFile: string;
  key: string;
  /** The entry as it was in the mcp.json. */
  entry: Record<string, unknown>;
  spellFile: string;
  /** Of the spell as written: a spell edited since is never deleted by the undo. */
  spellHash: string;
  /** The whole mcp.json before the move. */
  backupFile: string;
  at: string;
}

export type AdoptionPlan = { ok: true; power: string; mcpFile: string; key: string; entry: McpEntry; spellFile: string } | { ok: false; message: string };

/** What the power is called and says, written into the spell (the mcp.json has neither). */
export interface PowerWords {
  description: string;
  keywords: string[];
}

const FORMAT: FormattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };
const RECORDS = 'adoptions.json';

export function adoptionsDir(dataDir: string): string {
  return path.join(dataDir, 'adoptions');
}

/** Where the spell goes: the workspace's .grimoire/ for a workspace mcp.json, the Grimoire home for the user's. */
export function spellFolderFor(mcpFile: string, grimoireHome: string): string {
  const workspace = inferWorkspace(mcpFile);
  return workspace ? path.join(workspace, '.grimoire') : grimoireHome;
}

/** Finds the power's entry and says why it cannot move, if it cannot. */
export function planAdoption(power: string, mcpFile: string, grimoireHome: string): AdoptionPlan {
  let text: string;
  try {
    text = fs.readFileSync(mcpFile, 'utf8');
  } catch (error) {
    return { ok: false, message: `${mcpFile} cannot be read (${(error as Error).message}).` };
  }
  const entry = mcpEntries(mcpFile, text).find((e) => normalizeName(e.key) === power);
  if (!entry) return { ok: false, message: `${mcpFile} has no server that becomes the power "${power}".` };
  const raw = JSON.stringify(entry.config);
  if (raw.includes('${input:')) return { ok: false, message: `"${entry.key}" asks VS Code for an input (\${input:...}), which a spell cannot prompt for: write the spell by hand with "Grimoire: New Spell File...".` };
  if (entry.config.envFile !== undefined) return { ok: false, message: `"${entry.key}" reads an envFile, which a spell does not: write the spell by hand with "Grimoire: New Spell File...".` };
  const spellFile = path.join(spellFolderFor(mcpFile, grimoireHome), spellFileName(power));
  if (fs.existsSync(spellFile)) return { ok: false, message: `${spellFile} already exists: move or rename it first.` };
  return { ok: true, power, mcpFile, key: entry.key, entry, spellFile };
}

/** Backup, spell, then the entry out of the mcp.json; the record last. Throws before changing anything it cannot finish. */
export function adopt(plan: Extract<AdoptionPlan, { ok: true }>, words: PowerWords, dataDir: string, now = new Date()): Adoption {
  const original = fs.readFileSync(plan.mcpFile, 'utf8');
  const dir = adoptionsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const backupFile = path.join(dir, `${now.toISOString().replace(/[:.]/g, '-')}-${plan.power}-mcp.json`);
  fs.writeFileSync(backupFile, original, { flag: 'wx' });
  const spell = spellText(plan, words);
  fs.mkdirSync(path.dirname(plan.spellFile), { recursive: true });
  fs.writeFileSync(plan.spellFile, spell, { flag: 'wx' });
  writeAtomically(plan.mcpFile, applyEdits(original, modify(original, ['servers', plan.key], undefined, { formattingOptions: FORMAT })));
  const adoption: Adoption = { power: plan.power, mcpFile: plan.mcpFile, key: plan.key, entry: plan.entry.config, spellFile: plan.spellFile, spellHash: shortHash(spell), backupFile, at: now.toISOString() };
  writeRecords(dataDir, [...adoptions(dataDir).filter((a) => !(a.mcpFile === adoption.mcpFile && a.key === adoption.key)), adoption]);
  return adoption;
}

export interface UndoOutcome {
  /** The entry is in the mcp.json again (false: one of that key was there already and was left alone). */
  restored: boolean;
  /** The spell was edited since the move: it is kept, and named here. */
  keptSpell?: string;
}

/** Puts the entry back into the mcp.json and removes the spell written for it (unless edited since). */
export function undoAdoption(adoption: Adoption, dataDir: string): UndoOutcome {
  const text = fs.existsSync(adoption.mcpFile) ? fs.readFileSync(adoption.mcpFile, 'utf8') : '{\n  "servers": {}\n}\n';
  const present = mcpEntries(adoption.mcpFile, text).some((entry) => entry.key === adoption.key);
  if (!present) writeAtomically(adoption.mcpFile, applyEdits(text, modify(text, ['servers', adoption.key], adoption.entry, { formattingOptions: FORMAT })));
  let keptSpell: string | undefined;
  if (fs.existsSync(adoption.spellFile)) {
    if (shortHash(fs.readFileSync(adoption.spellFile, 'utf8')) === adoption.spellHash) fs.rmSync(adoption.spellFile);
    else keptSpell = adoption.spellFile;
  }
  writeRecords(dataDir, adoptions(dataDir).filter((a) => !(a.mcpFile === adoption.mcpFile && a.key === adoption.key)));
  return { restored: !present, ...(keptSpell ? { keptSpell } : {}) };
}

/** The moves not undone yet, oldest first. */
export function adoptions(dataDir: string): Adoption[] {
  try {
    const records = parseJsonc(fs.readFileSync(path.join(adoptionsDir(dataDir), RECORDS), 'utf8'));
    return Array.isArray(records) ? (records as Adoption[]) : [];
  } catch {
    return [];
  }
}

function writeRecords(dataDir: string, records: Adoption[]): void {
  fs.mkdirSync(adoptionsDir(dataDir), { recursive: true });
  writeAtomically(path.join(adoptionsDir(dataDir), RECORDS), JSON.stringify(records, null, 2) + '\n');
}

/** A reader (VS Code, Grimoire's watcher) sees the old file or the new one, never half of one. */
function writeAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.grimoire-tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}

/** The power's keywords, topped up from the server's key to the 3 a spell needs; at most 20. */
function keywordsOf(plan: Extract<AdoptionPlan, { ok: true }>, words: PowerWords): string[] {
  const fromKey = normalizeName(plan.key).split('-').filter((word) => word.length > 2);
  return [...new Set([...words.keywords, ...fromKey, plan.power])].slice(0, 20);
}

/** The spell for the entry, with the words the power has now instead of the template's placeholders, and no placeholder steering. */
function spellText(plan: Extract<AdoptionPlan, { ok: true }>, words: PowerWords): string {
  const workspaceFolder = inferWorkspace(plan.mcpFile);
  const text = spellFromMcpEntry(plan.entry, workspaceFolder ? { workspaceFolder } : {})
    .replace(/^description: .*$/m, `description: ${JSON.stringify(words.description)}`)
    .replace(/^keywords: .*$/m, `keywords: [${keywordsOf(plan, words).map((word) => JSON.stringify(word)).join(', ')}]`)
    .replace(/^steering: \|\n(?: {2}.*\n)*/m, '');
  return `# Moved from ${plan.mcpFile} by "Grimoire: Route Through Grimoire Alone", so that VS Code no longer offers it to the agent directly.\n# "Grimoire: Undo Routing Through Grimoire" puts the entry back.\n${text}`;
}
