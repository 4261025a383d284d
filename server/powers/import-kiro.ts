/**
 * Imports Kiro power folders (`~/.kiro/powers/<power>/`, the workspace's `.kiro/powers/<power>/`):
 * `POWER.md` gives the name, description and keywords (front matter) and the steering (its body);
 * `mcp.json` gives the server, in Claude's shape. A folder without `mcp.json` is a knowledge-only
 * power with no server, which Grimoire cannot offer: it is skipped. An `mcp.json` with several
 * servers gives one power per server, `<power>-<server>`, sharing the folder's words.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage } from '../log.js';
import { claudeShapeServers } from './import-claude.js';
import { ImportCollector, isRecord, readConfig, type ImportResult, type PowerWords } from './import-common.js';
import type { LoadIssue } from './types.js';
import { normalizeName } from '../../shared/power-name.js';
import { readYaml } from './yaml-limits.js';
import { readTextFile, type FileLimits } from '../../shared/safe-read.js';

export function importKiroPowers(dir: string, limits?: FileLimits): ImportResult {
  const result: ImportResult = { powers: [], issues: [] };
  for (const folder of powerFolders(dir, result.issues)) {
    const one = importKiroPower(folder, limits);
    result.powers.push(...one.powers);
    result.issues.push(...one.issues);
  }
  return result;
}

/** The power folders under `dir` (those holding a POWER.md), sorted; a missing `dir` has none. */
export function powerFolders(dir: string, issues: LoadIssue[] = []): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      issues.push({
        file: dir,
        field: '',
        message: `cannot read the Kiro powers folder: ${errorMessage(error)}`,
        fix: 'check that it is a readable folder',
      });
    }
    return [];
  }
  return names.map((name) => path.join(dir, name)).filter((folder) => fs.existsSync(path.join(folder, 'POWER.md')));
}

export function importKiroPower(folder: string, limits?: FileLimits): ImportResult {
  const mcpFile = path.join(folder, 'mcp.json');
  const collector = new ImportCollector('kiro-power', mcpFile);
  const { issues } = collector.result;
  const powerFile = path.join(folder, 'POWER.md');
  const doc = readPowerDoc(powerFile, issues, limits);
  if (!doc || !fs.existsSync(mcpFile)) return collector.result;
  const config = readConfig(mcpFile, issues, limits);
  if (!config) return collector.result;
  const base = normalizeName(doc.name ?? path.basename(folder)) || normalizeName(path.basename(folder));
  const servers = claudeShapeServers(config, collector, mcpFile, issues);
  for (const { key, field, server } of servers) {
    const name = collector.name(servers.length === 1 ? base : `${base}-${key}`, field);
    if (name) collector.add(name, server, [], doc.words);
  }
  return collector.result;
}

interface PowerDoc {
  name?: string;
  words: PowerWords;
}

function readPowerDoc(file: string, issues: LoadIssue[], limits?: FileLimits): PowerDoc | undefined {
  const read = readTextFile(file, limits);
  if (!read.ok) {
    issues.push({ file, field: '', message: `cannot read POWER.md: ${read.message}`, fix: read.fix });
    return undefined;
  }
  const text = read.text;
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  const body = (match ? text.slice(match[0].length) : text).trim();
  let front: unknown = {};
  if (match) {
    const yaml = readYaml(match[1]);
    if (yaml.ok) front = yaml.data ?? {};
    else
      for (const problem of yaml.problems)
        issues.push({
          file,
          field: '',
          line: problem.line + 1,
          message: `the front matter is not valid YAML: ${problem.message}`,
          fix: problem.fix,
        });
  }
  const meta = isRecord(front) ? front : {};
  const text_ = (key: string) => (typeof meta[key] === 'string' && meta[key].trim() ? meta[key].trim() : undefined);
  const keywords = Array.isArray(meta.keywords)
    ? meta.keywords.filter((k): k is string => typeof k === 'string' && k.trim() !== '').map((k) => k.trim())
    : [];
  const displayName = text_('displayName');
  const description = text_('description');
  return {
    name: text_('name'),
    words: {
      description: description && displayName ? `${displayName}: ${description}` : description,
      keywords,
      steering: body,
    },
  };
}
