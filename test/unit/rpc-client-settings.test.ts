import { FITTED_ACTIVATE_THRESHOLD } from '../../server/resolve/default-calibration.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  effectiveSettings,
  gatewayConfig,
  onlyThresholdsDiffer,
  parseClientSettings,
  parseInitializationOptions,
} from '../../server/rpc/client-settings.js';
import { bandOf } from '../../server/rpc/payloads.js';
import type { ClientSettings } from '../../protocol/client-settings-schema.js';
import { declaration, declaredKeys } from '../../protocol/vscode-settings.js';
import { tempDir } from '../helpers/temp.js';

const base: ClientSettings = { demoPowers: false, spellFolders: [], gateway: {} };

test('VS Code settings go over settings.json; a key left unset keeps the file value', () => {
  const home = tempDir();
  try {
    fs.writeFileSync(
      path.join(home.dir, 'settings.json'),
      JSON.stringify({ resolve: { weakThreshold: 0.2 }, upstream: { callTimeoutMs: 5000 } }),
    );
    const config = gatewayConfig(
      { settings: { ...base, gateway: { upstream: { callTimeoutMs: 9000 } } } },
      { GRIMOIRE_HOME: home.dir },
    );
    assert.equal(config.settings.upstream.callTimeoutMs, 9000);
    assert.equal(config.settings.resolve.weakThreshold, 0.2);
    assert.equal(config.settings.resolve.activateThreshold, FITTED_ACTIVATE_THRESHOLD);
  } finally {
    home.cleanup();
  }
});

test('an out-of-range setting is left out with a reason; the valid ones still apply', () => {
  const result = effectiveSettings('/nonexistent/settings.json', {
    resolve: { activateThreshold: 3, weakThreshold: 0.1 },
    upstream: { idle: { turns: -1 } },
  });
  assert.equal(result.settings.resolve.activateThreshold, FITTED_ACTIVATE_THRESHOLD);
  assert.equal(result.settings.resolve.weakThreshold, 0.1);
  assert.equal(result.settings.upstream.idle.turns, 5);
  assert.equal(result.problems.length, 2);
  assert.match(result.problems.join('\n'), /grimoire\.resolve\.activateThreshold/);
  assert.match(result.problems.join('\n'), /grimoire\.upstream\.idle\.turns/);
});

test('spell folders: $GRIMOIRE_HOME first, relative ones against the workspace, ~ expanded, no duplicates', () => {
  const config = gatewayConfig(
    {
      settings: { ...base, spellFolders: ['team/spells', '~/more', '/abs', '/abs', ' '] },
      workspaceFolder: '/work/project',
    },
    { GRIMOIRE_HOME: '/home/me/.grimoire' },
  );
  assert.deepEqual(config.runtime.spellDirs, [
    '/home/me/.grimoire',
    '/work/project/team/spells',
    path.join(os.homedir(), 'more'),
    '/abs',
  ]);
  assert.equal(config.runtime.workspaceFolder, '/work/project');
  assert.equal(config.runtime.watch, true);
});

test('only a threshold change is applied without a restart', () => {
  const env = { GRIMOIRE_HOME: '/nonexistent-home' };
  const a = gatewayConfig({ settings: base }, env);
  const thresholds = gatewayConfig({ settings: { ...base, gateway: { resolve: { activateThreshold: 0.7 } } } }, env);
  const demo = gatewayConfig({ settings: { ...base, demoPowers: true } }, env);
  const timeout = gatewayConfig({ settings: { ...base, gateway: { upstream: { callTimeoutMs: 10 } } } }, env);
  assert.equal(onlyThresholdsDiffer(a, thresholds), true);
  assert.equal(onlyThresholdsDiffer(a, demo), false);
  assert.equal(onlyThresholdsDiffer(a, timeout), false);
});

test('malformed initialization options fall back to the defaults and say why', () => {
  const bad = parseInitializationOptions({ settings: { demoPowers: 'yes' } });
  assert.equal(bad.options.settings.demoPowers, false);
  assert.match(bad.problems.join('\n'), /demoPowers/);
  assert.deepEqual(parseInitializationOptions(undefined).options, { settings: base });
  assert.equal(parseClientSettings({ demoPowers: true, spellFolders: 'x' }).settings, undefined);
});

test('the gateway patch takes each declared gateway key with its declared type, refuses another type and drops undeclared keys', () => {
  const ofType = { boolean: true, number: 0.5, integer: 7, array: ['x'] } as Record<string, unknown>;
  for (const key of declaredKeys('gateway')) {
    const setting = declaration(key);
    const good = setting.type === 'string' ? setting.enum[0] : ofType[setting.type];
    const nest = (value: unknown) => key.split('.').reduceRight<unknown>((inner, part) => ({ [part]: inner }), value);
    const accepted = parseClientSettings({ ...base, gateway: nest(good) });
    assert.deepEqual(accepted.settings?.gateway, nest(good), key);
    const refused = parseClientSettings({ ...base, gateway: nest(setting.type === 'boolean' ? 'yes' : false) });
    assert.equal(refused.settings, undefined, key);
    assert.deepEqual(
      refused.problems.map((problem) => problem.split(':')[0]),
      [`settings.gateway.${key}`],
    );
  }
  assert.deepEqual(
    parseClientSettings({ ...base, gateway: { resolve: { weakThreshold: 0.2, notDeclared: 1 }, elsewhere: {} } })
      .settings?.gateway,
    { resolve: { weakThreshold: 0.2 } },
  );
});

test('each score falls in the band of its own confidence', () => {
  const thresholds = { activateThreshold: 0.85, multipleThreshold: 0.5, weakThreshold: 0.3 };
  assert.equal(bandOf(0.85, thresholds), 'activated');
  assert.equal(bandOf(0.849, thresholds), 'multiple_matches');
  assert.equal(bandOf(0.3, thresholds), 'weak_matches');
  assert.equal(bandOf(0.29, thresholds), 'not_found');
});
