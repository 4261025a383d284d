import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXTENSION_SETTING_KEYS, GATEWAY_SETTING_KEYS, readClientSettings, type SettingsSource } from '../../client/settings.js';
import { defaultSettings } from '../../server/config/settings.js';
import { gatewayConfig } from '../../server/rpc/client-settings.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

interface ConfigurationProperty {
  type: string;
  default: unknown;
  markdownDescription?: string;
  description?: string;
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, ConfigurationProperty> } };
};
const properties = manifest.contributes.configuration.properties;

function source(values: Record<string, unknown>, explicit: Record<string, unknown>): SettingsSource {
  return { value: (key) => explicit[key] ?? values[key], explicit: (key) => explicit[key] };
}

function valueAt(object: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], object);
}

test('only the gateway settings the user set are sent, shaped like settings.json', () => {
  const settings = readClientSettings(source({ demoPowers: false, spellFolders: [] }, { 'resolve.activateThreshold': 0.9, 'upstream.idle.mode': 'turns', 'imports.claudeDesktop': false }));
  assert.deepEqual(settings.gateway, { resolve: { activateThreshold: 0.9 }, upstream: { idle: { mode: 'turns' } }, imports: { claudeDesktop: false } });
  assert.equal(settings.demoPowers, false);
});

test('demo powers and spell folders are read from the effective value; junk in the folder list is dropped', () => {
  const settings = readClientSettings(source({ demoPowers: true, spellFolders: ['~/spells', 42, 'team'] }, {}));
  assert.equal(settings.demoPowers, true);
  assert.deepEqual(settings.spellFolders, ['~/spells', 'team']);
  assert.deepEqual(settings.gateway, {});
});

test('package.json contributes exactly the settings the client reads, each described', () => {
  const contributed = Object.keys(properties).sort();
  const read = [...GATEWAY_SETTING_KEYS, ...EXTENSION_SETTING_KEYS].map((key) => `grimoire.${key}`).sort();
  assert.deepEqual(contributed, read);
  for (const [key, property] of Object.entries(properties)) assert.ok((property.markdownDescription ?? property.description ?? '').length > 20, `${key} has a description`);
});

test("the contributed defaults are the gateway's own defaults", () => {
  const defaults = defaultSettings();
  for (const key of GATEWAY_SETTING_KEYS) assert.deepEqual(properties[`grimoire.${key}`].default, valueAt(defaults, key), key);
});

test('every contributed gateway setting reaches the runtime settings when set', () => {
  const home = tempDir();
  try {
    const explicit: Record<string, unknown> = {
      'resolve.activateThreshold': 0.9,
      'resolve.multipleThreshold': 0.6,
      'resolve.weakThreshold': 0.2,
      'upstream.callTimeoutMs': 1234,
      'upstream.idle.mode': 'never',
      'upstream.idle.minutes': 3,
      'upstream.idle.turns': 7,
      'imports.vscode': false,
      'imports.claudeDesktop': false,
      'imports.cursor': false,
      'imports.kiro': false,
      'discovery.enabled': false,
      'intel.readWholeTokens': 4000,
      'intel.summarizers.timeBudgetMs': 1500,
      'intel.summarizers.samplingInVsCode': true,
    };
    assert.deepEqual(Object.keys(explicit).sort(), [...GATEWAY_SETTING_KEYS].sort());
    const client = readClientSettings(source({ demoPowers: false, spellFolders: [] }, explicit));
    const config = gatewayConfig({ settings: client }, { GRIMOIRE_HOME: home.dir });
    for (const [key, value] of Object.entries(explicit)) assert.deepEqual(valueAt(config.settings, key), value, key);
    assert.deepEqual(config.problems, []);
  } finally {
    home.cleanup();
  }
});
