/** All powers from every source in one registry, reloaded when a spell folder or imported config changes. */
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage, logger } from '../log.js';
import { importClaudeDesktop } from './import-claude.js';
import { sameServer, type ImportKind, type ImportResult } from './import-common.js';
import { importCursorMcp } from './import-cursor.js';
import { importKiroPowers, powerFolders } from './import-kiro.js';
import { importVscodeMcp } from './import-vscode.js';
import { grimoireItself } from './self-entry.js';
import { brokenPowers, describeChange, formatIssue } from './issue-text.js';
import { isSpellFileName, loadSpellFile, type SpellLoadContext } from './spell-loader.js';
import type { FileLimits } from '../../shared/safe-read.js';
import type { SpellExtensions } from './spell-schema.js';
import type { LoadIssue, PowerDefinition, RegistryChange, RegistrySnapshot } from './types.js';
import { PathWatcher, type PathWatcherOptions, type WatchTarget } from './watcher.js';

const log = logger('powers');

export interface PowerRegistryOptions {
  spellDirs: string[];
  importFiles: { kind: ImportKind; file: string }[];
  extraSpellDirs?: { dir: string; kind: 'demo'; vars: Record<string, string> }[];
  env: Record<string, string | undefined>;
  workspaceFolder?: string;
  /** Size and time limits for every file read (default: the settings' defaults). */
  limits?: FileLimits;
}

export type { RegistryChange } from './types.js';

export interface RegistryWatchOptions extends PathWatcherOptions {
  debounceMs?: number;
}

type Events = {
  /** Powers were added, removed or changed (by definitionHash). */
  change: [RegistryChange];
  /** The list of load issues changed. */
  issues: [RegistrySnapshot];
};

export class PowerRegistry extends EventEmitter<Events> {
  private current: RegistrySnapshot = { powers: [], issues: [] };
  private extras = new Map<string, SpellExtensions>();
  private loaded = false;
  private watcher?: PathWatcher;
  /** Shared with the watcher, refreshed on every reload: Kiro power folders come and go. */
  private readonly watchTargets: WatchTarget[] = [];
  private timer?: NodeJS.Timeout;
  private debounceMs = 150;

  constructor(private readonly options: PowerRegistryOptions) {
    super();
  }

  load(): RegistrySnapshot {
    const powers = new Map<string, PowerDefinition>();
    const extras = new Map<string, SpellExtensions>();
    const issues: LoadIssue[] = [];
    const accept = (power: PowerDefinition, extensions?: SpellExtensions) => {
      const first = powers.get(power.name);
      // The same server imported again (from Claude's config after VS Code's, say) is one power: the first one read.
      if (first && power.source.readOnly && sameServer(first.server, power.server)) return;
      // The user's own power wins over a demo power of the same name (demos are read last).
      if (first && power.source.kind === 'demo') {
        log.info(`the demo power "${power.name}" is not loaded: ${first.source.file} defines a power of that name`);
        return;
      }
      if (first) {
        issues.push({
          file: power.source.file,
          field: 'name',
          message: `power "${power.name}" in ${power.source.file} is ignored: ${first.source.file} already defines it`,
          fix: 'rename one of them (name: in a spell, the server key in an imported config)',
        });
        return;
      }
      powers.set(power.name, power);
      if (extensions) extras.set(power.name, extensions);
    };
    const { env, limits } = this.options;
    for (const dir of this.options.spellDirs) this.loadDir(dir, { env, limits, kind: 'spell' }, accept, issues);
    for (const { kind, file } of this.options.importFiles) {
      const result = this.importFile(kind, file);
      issues.push(...result.issues);
      for (const power of result.powers) {
        // An entry that runs Grimoire itself would be a gateway behind itself.
        const itself = grimoireItself(power.server, path.dirname(path.resolve(file)));
        if (itself) log.info(`${file}: "${power.name}" is not imported: it runs Grimoire itself (${itself})`);
        else accept(power);
      }
    }
    for (const extra of this.options.extraSpellDirs ?? [])
      this.loadDir(extra.dir, { env, limits, vars: extra.vars, kind: extra.kind }, accept, issues);
    this.current = { powers: [...powers.values()], issues };
    this.extras = extras;
    this.loaded = true;
    log.debug(`loaded ${powers.size} powers, ${issues.length} issues`);
    return this.current;
  }

  snapshot(): RegistrySnapshot {
    return this.current;
  }

  get(name: string): PowerDefinition | undefined {
    return this.current.powers.find((p) => p.name === name);
  }

  /** A spell's hints / annotations / when, which PowerDefinition does not carry. */
  extensions(name: string): SpellExtensions | undefined {
    return this.extras.get(name);
  }

  watch(options: RegistryWatchOptions = {}): void {
    if (this.watcher) return;
    this.debounceMs = options.debounceMs ?? 150;
    this.refreshWatchTargets();
    this.watcher = new PathWatcher(this.watchTargets, () => this.schedule(), options);
    this.watcher.arm();
    // Armed before reading, so that nothing written in between goes unseen.
    if (this.loaded) this.schedule();
    else this.load();
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }

  private schedule(): void {
    if (!this.watcher) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.reload(), this.debounceMs);
  }

  /**
   * Reads every source again now (the Reload Powers command), emits 'change' / 'issues' when
   * something differs, and returns the change.
   */
  reloadNow(): RegistryChange {
    clearTimeout(this.timer);
    return this.apply(this.current, this.load());
  }

  private reload(): void {
    const watcher = this.watcher;
    if (!watcher) return;
    try {
      this.refreshWatchTargets();
      watcher.arm();
      const before = this.current;
      const after = this.load();
      // A folder that appeared while loading is now watched; read again so nothing written meanwhile is missed.
      if (watcher.arm()) this.schedule();
      this.apply(before, after);
    } catch (error) {
      log.error(`reloading powers failed: ${errorMessage(error)}`);
    }
  }

  private apply(before: RegistrySnapshot, after: RegistrySnapshot): RegistryChange {
    const change = diff(before, after);
    const known = new Set(before.issues.map((issue) => JSON.stringify(issue)));
    for (const issue of after.issues) if (!known.has(JSON.stringify(issue))) log.warn(formatIssue(issue));
    for (const line of brokenPowers(change.removed, after.issues)) log.warn(line);
    if (change.added.length || change.removed.length || change.changed.length) {
      log.info(`powers changed: ${describeChange(change)}`);
      this.emit('change', change);
    }
    if (JSON.stringify(before.issues) !== JSON.stringify(after.issues)) this.emit('issues', after);
    return change;
  }

  private loadDir(
    dir: string,
    ctx: SpellLoadContext,
    accept: (p: PowerDefinition, e?: SpellExtensions) => void,
    issues: LoadIssue[],
  ): void {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter(isSpellFileName).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        issues.push({
          file: dir,
          field: '',
          message: `cannot read the spell folder: ${errorMessage(error)}`,
          fix: 'check that it is a readable folder',
        });
      }
      return;
    }
    for (const name of names) {
      const result = loadSpellFile(path.join(dir, name), ctx);
      // A file whose power loaded has only warnings; one that did not load has errors (and any warning of its own).
      issues.push(
        ...result.issues.map((issue) => ({
          ...issue,
          severity: issue.severity ?? (result.power ? ('warning' as const) : ('error' as const)),
        })),
      );
      if (result.power) accept(result.power, result.extensions);
    }
  }

  private refreshWatchTargets(): void {
    const targets: WatchTarget[] = [
      ...this.options.spellDirs.map((p) => ({ path: p, kind: 'dir' as const })),
      ...(this.options.extraSpellDirs ?? []).map((e) => ({ path: e.dir, kind: 'dir' as const })),
      ...this.options.importFiles.flatMap(({ kind, file }) => importWatchTargets(kind, file)),
    ];
    this.watchTargets.splice(0, this.watchTargets.length, ...targets);
  }

  private importFile(kind: ImportKind, file: string): ImportResult {
    const ctx = { env: this.options.env, workspaceFolder: this.options.workspaceFolder, limits: this.options.limits };
    switch (kind) {
      case 'vscode-mcp':
        return importVscodeMcp(file, ctx);
      case 'claude-desktop':
        return importClaudeDesktop(file, 'claude-desktop', this.options.limits);
      case 'cursor-mcp':
        return importCursorMcp(file, ctx);
      case 'kiro-power':
        return importKiroPowers(file, this.options.limits);
      default:
        throw new Error(`no importer reads '${kind satisfies never}'`);
    }
  }
}

/** An imported config file, or the folder of Kiro's power folders and each of them. */
function importWatchTargets(kind: ImportKind, file: string): WatchTarget[] {
  switch (kind) {
    case 'vscode-mcp':
    case 'claude-desktop':
    case 'cursor-mcp':
      return [{ path: file, kind: 'file' }];
    case 'kiro-power':
      return [
        { path: file, kind: 'dir' },
        ...powerFolders(file).map((folder) => ({ path: folder, kind: 'dir' as const })),
      ];
    default:
      throw new Error(`no watch targets for '${kind satisfies never}'`);
  }
}

export function diff(before: RegistrySnapshot, after: RegistrySnapshot): RegistryChange {
  const old = new Map(before.powers.map((p) => [p.name, p]));
  const now = new Map(after.powers.map((p) => [p.name, p]));
  return {
    added: after.powers.filter((p) => !old.has(p.name)),
    removed: before.powers.filter((p) => !now.has(p.name)),
    changed: after.powers
      .filter((p) => old.has(p.name) && old.get(p.name)!.definitionHash !== p.definitionHash)
      .map((after) => ({ before: old.get(after.name)!, after })),
    snapshot: after,
  };
}
