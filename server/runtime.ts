import type { GrimoirePaths } from './config/paths.js';
import type { Settings } from './config/settings.js';
import { Gateway } from './gateway/gateway.js';
import type { PowerRegistry } from './powers/registry.js';
import { demoSpellDirs, loadRegistry, openStore, runtimeConfig } from './runtime-parts.js';
import type { Store } from './store/store.js';
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
  /** The store in PostgreSQL (postgres://…); default GRIMOIRE_DATABASE_URL, else the embedded store. */
  databaseUrl?: string;
  /** PostgreSQL unreachable at start: keep retrying this long (default 10 s), telling `onStoreRetry`. */
  storeConnectForMs?: number;
  onStoreRetry?: (message: string) => void;
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
  const config = runtimeConfig(options);
  const { paths, settings } = config;
  const store = await openStore(config, options);
  const extraSpellDirs = demoSpellDirs(options, config);
  const registry = loadRegistry(options, config, 'warn', extraSpellDirs);
  const snapshot = registry.snapshot();
  log.debug(`${snapshot.powers.length} power(s): ${snapshot.powers.map((p) => p.name).join(', ') || 'none'}`);
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
      await store.close();
    },
  };
}
