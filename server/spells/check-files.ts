/** Checks spell files on disk together: duplicate names across them, and known tools from the catalog when a data dir has one. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Catalog } from '../catalog/catalog.js';
import { isSpellFileName } from '../powers/spell-loader.js';
import { Store } from '../store/store.js';
import { errorMessage } from '../log.js';
import { checkSpell, formatProblem, type SpellProblem } from './check-spell.js';

export interface CheckedFile {
  file: string;
  /** The power's name, when the file loads. */
  power?: string;
  problems: SpellProblem[];
  /** `file:line:col: severity: message (fix: ...)` per problem. */
  lines: string[];
}

export interface CheckFilesOptions {
  env: NodeJS.ProcessEnv;
  /** The gateway's data dir: its catalog names the tools of powers that have run. */
  dataDir?: string;
  /** A named file or folder that does not exist is a problem (true for paths the user gave). */
  mustExist?: boolean;
}

function spellFilesIn(target: string): string[] {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return [target];
  if (!stat.isDirectory()) return [target];
  return fs
    .readdirSync(target)
    .filter(isSpellFileName)
    .sort()
    .map((name) => path.join(target, name));
}

async function openCatalog(dataDir: string | undefined): Promise<{ catalog?: Catalog; close(): void }> {
  if (!dataDir || !fs.existsSync(dataDir)) return { close: () => undefined };
  try {
    // Only read: the whole file is not checked first (a damaged page fails the read, reported below).
    const store = await Store.open({ dataDir, verify: false });
    return { catalog: new Catalog(store), close: () => store.close() };
  } catch (error) {
    process.stderr.write(
      `grimoire: the catalog in ${dataDir} could not be read (${errorMessage(error)}): tool names are not checked\n`,
    );
    return { close: () => undefined };
  }
}

export async function checkSpells(targets: string[], options: CheckFilesOptions): Promise<CheckedFile[]> {
  const files = [...new Set(targets.flatMap(spellFilesIn).map((file) => path.resolve(file)))];
  const texts = new Map<string, string | Error>();
  for (const file of files) {
    try {
      texts.set(file, fs.readFileSync(file, 'utf8'));
    } catch (error) {
      texts.set(file, error as Error);
    }
  }
  const { catalog, close } = await openCatalog(options.dataDir);
  try {
    const toolsOf = (name: string) => catalog?.tools(name).map((tool) => tool.name);
    const base = { env: options.env, pathEnv: options.env.PATH, toolsOf };
    // First pass: which file defines which name, so the second can tell duplicates.
    const powers = [...texts].flatMap(([file, text]) => {
      if (typeof text !== 'string') return [];
      const name = checkSpell(text, file, base).power?.name;
      return name ? [{ name, file }] : [];
    });
    return [...texts].map(([file, text]): CheckedFile => {
      if (typeof text !== 'string') {
        const missing = (text as NodeJS.ErrnoException).code === 'ENOENT';
        const problem: SpellProblem = {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: missing && !options.mustExist ? 'warning' : 'error',
          code: 'yaml',
          field: '',
          message: missing ? 'no such file or folder' : `cannot read the file: ${text.message}`,
          fix: missing ? 'check the path' : 'check that the file is readable',
        };
        return { file, problems: [problem], lines: [formatProblem(file, problem)] };
      }
      const { problems, power } = checkSpell(text, file, { ...base, otherPowers: powers });
      return { file, power: power?.name, problems, lines: problems.map((problem) => formatProblem(file, problem)) };
    });
  } finally {
    close();
  }
}
