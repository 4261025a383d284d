/** The `grimoire.*` settings read into the protocol's `ClientSettings`. No `vscode` import: unit-tested as is. */
import type { ClientSettings, GatewaySettingsPatch } from '../protocol/client-settings-schema.js';

/** Settings that mirror `~/.grimoire/settings.json` keys (under `grimoire.` in VS Code). */
export const GATEWAY_SETTING_KEYS = [
  'resolve.activateThreshold',
  'resolve.multipleThreshold',
  'resolve.weakThreshold',
  'upstream.callTimeoutMs',
  'upstream.idle.mode',
  'upstream.idle.minutes',
  'upstream.idle.turns',
  'imports.vscode',
  'imports.claudeDesktop',
  'imports.cursor',
  'imports.kiro',
  'discovery.enabled',
  'intel.readWholeTokens',
  'intel.summarizers.timeBudgetMs',
  'intel.summarizers.samplingInVsCode',
] as const;

/** Lend VS Code's language model to the gateway's summarizer (client/language-model.ts). */
export const LANGUAGE_MODEL_SETTING = 'summaries.languageModel';

export const EXTENSION_SETTING_KEYS = ['demoPowers', 'spellFolders', LANGUAGE_MODEL_SETTING] as const;

export interface SettingsSource {
  /** The effective value (the default when unset). */
  value(key: string): unknown;
  /** The value the user set (folder, workspace or user scope), or undefined when left at the default. */
  explicit(key: string): unknown;
}

/**
 * Gateway keys go to the server only when the user set them, so that a key left unset keeps the value
 * from `~/.grimoire/settings.json` that the command-line gateway uses too.
 */
export function readClientSettings(source: SettingsSource): ClientSettings {
  const gateway: Record<string, unknown> = {};
  for (const key of GATEWAY_SETTING_KEYS) {
    const value = source.explicit(key);
    if (value !== undefined) setPath(gateway, key.split('.'), value);
  }
  const folders = source.value('spellFolders');
  return {
    demoPowers: source.value('demoPowers') === true,
    spellFolders: Array.isArray(folders) ? folders.filter((folder): folder is string => typeof folder === 'string') : [],
    gateway: gateway as GatewaySettingsPatch,
  };
}

function setPath(target: Record<string, unknown>, keys: string[], value: unknown): void {
  const [head, ...rest] = keys;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const child = (target[head] ??= {}) as Record<string, unknown>;
  setPath(child, rest, value);
}
