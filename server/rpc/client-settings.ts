/** The extension's settings (protocol `ClientSettings`) mapped onto a gateway runtime and its `Settings`. */
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { resolvePaths } from '../../shared/grimoire-paths.js';
import { loadSettingsFile, withOverrides, type Settings } from '../config/settings.js';
import type { RuntimeOptions } from '../runtime.js';
import {
  clientSettingsSchema,
  initializationSchema,
  type ClientSettings,
  type GatewaySettingsPatch,
  type InitializationOptions,
} from '../../protocol/client-settings-schema.js';

/** Reads what the client sent; anything malformed falls back to the defaults, with the reason. */
export function parseInitializationOptions(value: unknown): { options: InitializationOptions; problems: string[] } {
  const parsed = initializationSchema.safeParse(value ?? {});
  if (parsed.success) return { options: parsed.data, problems: [] };
  return {
    options: initializationSchema.parse({}),
    problems: parsed.error.issues.map((issue) => `initializationOptions.${issue.path.join('.')}: ${issue.message}`),
  };
}

export function parseClientSettings(value: unknown): { settings?: ClientSettings; problems: string[] } {
  const parsed = clientSettingsSchema.safeParse(value);
  if (parsed.success) return { settings: parsed.data, problems: [] };
  return { problems: parsed.error.issues.map((issue) => `settings.${issue.path.join('.')}: ${issue.message}`) };
}

export interface GatewayConfig {
  runtime: RuntimeOptions;
  /** The settings the runtime will have: settings.json, then the VS Code settings on top. */
  settings: Settings;
  /** VS Code settings that were refused (out of range, ...), each with the reason. */
  problems: string[];
}

/**
 * The runtime for these settings. Spell folders are `$GRIMOIRE_HOME` plus `spellFolders` (relative ones
 * against the workspace folder, `~` expanded); the workspace's `.grimoire/` is added by the runtime.
 */
export function gatewayConfig(
  init: InitializationOptions,
  env: NodeJS.ProcessEnv,
  demoModules?: string,
): GatewayConfig {
  const home = resolvePaths(env).home;
  const { settings, patch, problems } = effectiveSettings(path.join(home, 'settings.json'), init.settings.gateway);
  const folders = init.settings.spellFolders
    .filter((folder) => folder.trim() !== '')
    .map((folder) => absoluteFolder(folder, init.workspaceFolder));
  return {
    runtime: {
      env,
      demo: init.settings.demoPowers,
      demoModules,
      spellDirs: [...new Set([home, ...folders])],
      workspaceFolder: init.workspaceFolder,
      imports: true,
      settingsOverrides: patch as Record<string, unknown>,
      watch: true,
    },
    settings,
    problems,
  };
}

/** Applies the patch over the settings file, leaving out (and reporting) every key the schema refuses. */
export function effectiveSettings(
  file: string,
  patch: GatewaySettingsPatch,
): { settings: Settings; patch: GatewaySettingsPatch; problems: string[] } {
  const base = loadSettingsFile(file);
  const problems = [...base.problems];
  let current = structuredClone(patch) as Record<string, unknown>;
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      return { settings: withOverrides(base.settings, current), patch: current as GatewaySettingsPatch, problems };
    } catch (error) {
      if (!(error instanceof z.ZodError)) throw error;
      for (const issue of error.issues) {
        problems.push(`grimoire.${issue.path.join('.')}: ${issue.message}; the setting is ignored until it is fixed.`);
        current = without(current, issue.path.map(String));
      }
    }
  }
  return { settings: base.settings, patch: {}, problems };
}

/** True when the two configs differ only in their resolve thresholds (applied without a restart). */
export function onlyThresholdsDiffer(a: GatewayConfig, b: GatewayConfig): boolean {
  const strip = (config: GatewayConfig) =>
    JSON.stringify({
      runtime: { ...config.runtime, env: undefined, settingsOverrides: undefined },
      settings: { ...config.settings, resolve: undefined },
    });
  return strip(a) === strip(b);
}

function absoluteFolder(folder: string, workspaceFolder: string | undefined): string {
  const expanded = folder === '~' || folder.startsWith('~/') ? path.join(os.homedir(), folder.slice(1)) : folder;
  return path.resolve(workspaceFolder ?? os.homedir(), expanded);
}

function without(value: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  if (keys.length === 0) return {};
  const [head, ...rest] = keys;
  const out = { ...value };
  const child = out[head];
  if (rest.length === 0 || typeof child !== 'object' || child === null) delete out[head];
  else out[head] = without(child as Record<string, unknown>, rest);
  return out;
}
