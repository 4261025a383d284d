import type { GrimoirePaths } from '../shared/grimoire-paths.js';
import type { Settings } from './config/settings.js';
import { composeGateway } from './composition-root.js';
import type { GatewayParts } from './gateway/gateway-parts.js';
import { Gateway } from './gateway/gateway.js';
import type { PowerRegistry } from './powers/registry.js';
import { demoSpellDirs, loadRegistry, openStore, runtimeConfig } from './runtime-parts.js';
import type { ExtraSpellDir, RuntimeOptions } from './runtime-options.js';
import type { Store } from './store/store.js';
import { LaunchApprovals } from './trust/launch-approvals.js';
import { logger } from './log.js';

const log = logger('runtime');

export type { RuntimeOptions } from './runtime-options.js';

export interface Runtime {
  /** The MCP surface. */
  gateway: Gateway;
  /** What the gateway is made of (server/composition-root.ts). */
  parts: GatewayParts;
  registry: PowerRegistry;
  store: Store;
  settings: Settings;
  paths: GrimoirePaths;
  /** Spell folders with variables of their own (the bundled demo spells). */
  extraSpellDirs: ExtraSpellDir[];
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

  const launches = new LaunchApprovals(store, {
    workspaceSpells: paths.workspaceSpells,
    trustAll: options.trustWorkspace === true,
  });
  const parts = composeGateway({ registry, store, settings, workspaceFolder: options.workspaceFolder, launches });
  const gateway = new Gateway(parts);
  let closed = false;
  return {
    gateway,
    parts,
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
