/**
 * The parts of a runtime that need no running gateway: paths and settings, the store, the power
 * registry. `createRuntime` wires them to a gateway; read-only CLI commands use them alone.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareDemo } from './config/demo.js';
import { resolvePaths, type GrimoirePaths } from '../shared/grimoire-paths.js';
import { loadSettingsFile, withOverrides, type Settings } from './config/settings.js';
import { defaultImportLocations, enabledImportLocations } from './powers/import-locations.js';
import { formatIssue } from './powers/issue-text.js';
import { PowerRegistry } from './powers/registry.js';
import { databaseUrl, openStore as openBackend } from './store/open-store.js';
import type { Store } from './store/store.js';
import { logger } from './log.js';
import { withoutGatewaySecrets } from './util/gateway-secrets.js';
import type { ExtraSpellDir, RuntimeOptions } from './runtime-options.js';

const log = logger('runtime');

export interface RuntimeConfig {
  env: NodeJS.ProcessEnv;
  paths: GrimoirePaths;
  settings: Settings;
}

export function runtimeConfig(options: RuntimeOptions): RuntimeConfig {
  const env = options.env ?? process.env;
  const paths = resolvePaths(env, options.workspaceFolder);
  const loaded = loadSettingsFile(path.join(paths.home, 'settings.json'));
  for (const problem of loaded.problems) log.warn(problem);
  const offline = env.GRIMOIRE_OFFLINE === '1' ? { resolve: { semantic: { allowRemoteModels: false } } } : {};
  const settings = withOverrides(withOverrides(loaded.settings, offline), options.settingsOverrides ?? {});
  return { env, paths, settings };
}

export function openStore(config: RuntimeConfig, options: RuntimeOptions): Promise<Store> {
  return openBackend({
    dataDir: config.paths.data,
    databaseUrl: databaseUrl(options.databaseUrl, config.env),
    connectForMs: options.storeConnectForMs,
    onRetry: options.onStoreRetry,
  });
}

/** The registry of spell files and imported configs, loaded; problems with a spell are logged at `problems` level. */
export function loadRegistry(
  options: RuntimeOptions,
  config: RuntimeConfig,
  problems: 'warn' | 'debug' = 'warn',
  extraSpellDirs = demoSpellDirs(options, config),
): PowerRegistry {
  const { env, paths, settings } = config;
  const spellDirs = options.spellDirs ? [...options.spellDirs] : [paths.home];
  if (paths.workspaceSpells) spellDirs.push(paths.workspaceSpells);
  const importFiles =
    options.imports === false
      ? []
      : enabledImportLocations(
          defaultImportLocations(os.homedir(), process.platform, env, options.workspaceFolder),
          settings.imports,
        );
  const registry = new PowerRegistry({
    spellDirs,
    importFiles,
    extraSpellDirs,
    // A spell or imported config never expands the gateway's own credentials.
    env: withoutGatewaySecrets(env),
    workspaceFolder: options.workspaceFolder,
    limits: settings.limits,
  });
  const snapshot = registry.load();
  for (const issue of snapshot.issues) log[problems](formatIssue(issue));
  return registry;
}

/** The bundled demo spells' folder when the runtime asks for the demo powers. */
export function demoSpellDirs(options: RuntimeOptions, config: RuntimeConfig): ExtraSpellDir[] {
  return options.demo
    ? [{ kind: 'demo', ...demoSpells(config.paths.data, options.demoModules, options.workspaceFolder) }]
    : [];
}

function demoSpells(
  dataDir: string,
  modules: string | undefined,
  workspaceFolder: string | undefined,
): ReturnType<typeof prepareDemo> {
  const demo = prepareDemo(dataDir, workspaceFolder);
  if (modules) demo.vars.GRIMOIRE_DEMO_MODULES = modules;
  return demo;
}
