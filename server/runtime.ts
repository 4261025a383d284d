import * as os from 'node:os';
import * as path from 'node:path';
import { prepareDemo } from './config/demo.js';
import { resolvePaths, type GrimoirePaths } from './config/paths.js';
import { loadSettingsFile, withOverrides, type Settings } from './config/settings.js';
import { Gateway } from './gateway/gateway.js';
import { defaultImportLocations, enabledImportLocations } from './powers/import-locations.js';
import { formatIssue } from './powers/issue-text.js';
import { PowerRegistry } from './powers/registry.js';
import { Store } from './store/store.js';
import { logger } from './log.js';

const log = logger('runtime');

export interface RuntimeOptions {
  env?: NodeJS.ProcessEnv;
  /** Add the bundled demo powers. */
  demo?: boolean;
  /** Folder holding the demo powers' npm servers (default: this package's node_modules). */
  demoModules?: string;
  /** Spell folders to use instead of `$GRIMOIRE_HOME`. */
  spellDirs?: string[];
  workspaceFolder?: string;
  /** Read VS Code's and Claude Desktop's configs (subject to the settings too). */
  imports?: boolean;
  settingsOverrides?: Record<string, unknown>;
  /** Reload powers when their files change. */
  watch?: boolean;
}

export interface Runtime {
  gateway: Gateway;
  registry: PowerRegistry;
  store: Store;
  settings: Settings;
  paths: GrimoirePaths;
  /** Spell folders with variables of their own (the bundled demo spells). */
  extraSpellDirs: Array<{ dir: string; kind: 'demo'; vars: Record<string, string> }>;
  close(): Promise<void>;
}

/** Wires the parts of a gateway together: settings, store, powers, upstream, resolver. */
export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const env = options.env ?? process.env;
  const paths = resolvePaths(env, options.workspaceFolder);
  const loaded = loadSettingsFile(path.join(paths.home, 'settings.json'));
  for (const problem of loaded.problems) log.warn(problem);
  const offline = env.GRIMOIRE_OFFLINE === '1' ? { resolve: { semantic: { allowRemoteModels: false } } } : {};
  const settings = withOverrides(withOverrides(loaded.settings, offline), options.settingsOverrides ?? {});
  const store = await Store.open({ dataDir: paths.data });

  const spellDirs = options.spellDirs ?? [paths.home];
  if (paths.workspaceSpells) spellDirs.push(paths.workspaceSpells);
  const importFiles =
    options.imports === false
      ? []
      : enabledImportLocations(defaultImportLocations(os.homedir(), process.platform, env, options.workspaceFolder), settings.imports);
  const extraSpellDirs: Runtime['extraSpellDirs'] = options.demo ? [{ kind: 'demo', ...demoSpells(paths.data, options.demoModules, options.workspaceFolder) }] : [];
  const registry = new PowerRegistry({
    spellDirs,
    importFiles,
    extraSpellDirs,
    env,
    workspaceFolder: options.workspaceFolder,
    limits: settings.limits,
  });
  const snapshot = registry.load();
  for (const issue of snapshot.issues) log.warn(formatIssue(issue));
  log.info(`${snapshot.powers.length} power(s): ${snapshot.powers.map((p) => p.name).join(', ') || 'none'}`);
  if (options.watch) registry.watch();

  const gateway = new Gateway({ registry, store, settings, workspaceFolder: options.workspaceFolder });
  let closed = false;
  return {
    gateway,
    registry,
    store,
    settings,
    paths,
    extraSpellDirs,
    async close() {
      if (closed) return;
      closed = true;
      registry.close();
      await gateway.shutdown();
      store.close();
    },
  };
}

function demoSpells(dataDir: string, modules: string | undefined, workspaceFolder: string | undefined): ReturnType<typeof prepareDemo> {
  const demo = prepareDemo(dataDir, workspaceFolder);
  if (modules) demo.vars.GRIMOIRE_DEMO_MODULES = modules;
  return demo;
}
