/**
 * The `grimoire.*` settings read into the protocol's `ClientSettings`, by their declarations
 * (protocol/vscode-settings.ts). No `vscode` import: unit-tested as is.
 */
import type { ClientSettings } from '../protocol/client-settings-schema.js';
import { declaration, declaredKeys, type SettingDeclaration, type SettingKeyTo } from '../protocol/vscode-settings.js';

/** Settings that mirror `~/.grimoire/settings.json` keys (under `grimoire.` in VS Code). */
export const GATEWAY_SETTING_KEYS = declaredKeys('gateway');

/** Lend VS Code's language model to the gateway's summarizer (client/language-model.ts). */
export const LANGUAGE_MODEL_SETTING = 'summaries.languageModel' satisfies SettingKeyTo<'extension'>;

export interface SettingsSource {
  /** The effective value (the default when unset). */
  value(key: string): unknown;
  /** The value the user set (folder, workspace or user scope), or undefined when left at the default. */
  explicit(key: string): unknown;
}

/**
 * Gateway keys go to the server only when the user set them, so that a key left unset keeps the value
 * from `~/.grimoire/settings.json` that the command-line gateway uses too. The client's own fields are
 * always sent, a value of the wrong type as the default (an array keeps its strings).
 */
export function readClientSettings(source: SettingsSource): ClientSettings {
  const gateway: Record<string, unknown> = {};
  for (const key of GATEWAY_SETTING_KEYS) {
    const value = source.explicit(key);
    if (value !== undefined) setPath(gateway, key.split('.'), value);
  }
  const client: Record<string, unknown> = {};
  for (const key of declaredKeys('client')) client[key] = valueOrDefault(source.value(key), declaration(key));
  return { ...client, gateway } as ClientSettings;
}

function valueOrDefault(value: unknown, setting: SettingDeclaration): unknown {
  switch (setting.type) {
    case 'array':
      return Array.isArray(value)
        ? value.filter((item): item is string => typeof item === 'string')
        : [...setting.default];
    case 'string':
      return (setting.enum as readonly unknown[]).includes(value) ? value : setting.default;
    case 'boolean':
    case 'number':
    case 'integer':
      return typeof value === (setting.type === 'integer' ? 'number' : setting.type) ? value : setting.default;
  }
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
