/**
 * Activation and exposure over real parts (store, catalog, pins, registry from a spell file,
 * session registry, upstream manager that starts nothing): which tools each session lists.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Catalog } from '../../server/catalog/catalog.js';
import { PowerTools } from '../../server/catalog/power-tools.js';
import { defaultSettings, withOverrides, type Settings } from '../../server/config/settings.js';
import { Activation, UnknownPowerError } from '../../server/gateway/activation.js';
import { GATEWAY_TOOLS } from '../../server/gateway/gateway-tools.js';
import { SessionRegistry, type SessionHandle } from '../../server/gateway/sessions/session-registry.js';
import { PowerRegistry } from '../../server/powers/registry.js';
import { Store } from '../../server/store/store.js';
import { ToolPolicy } from '../../server/trust/tool-policy.js';
import { ToolTrust } from '../../server/trust/tool-trust.js';
import { UpstreamManager } from '../../server/upstream/manager.js';
import { tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';

const tool = (name: string, description = `${name} things`) => ({
  name,
  description,
  inputSchema: { type: 'object' as const },
});

async function parts(
  overrides: Record<string, unknown>,
  run: (p: {
    activation: Activation;
    sessions: SessionRegistry;
    trust: ToolTrust;
    changes: () => number;
    settings: Settings;
  }) => Promise<void>,
) {
  const temp = tempDir();
  const store = await Store.open({ dataDir: path.join(temp.dir, 'data'), fsync: false });
  const spells = path.join(temp.dir, 'spells');
  writeSpell(spells, 'unstable', unstableSpell());
  const registry = new PowerRegistry({ spellDirs: [spells], importFiles: [], env: process.env });
  registry.load();
  const manager = new UpstreamManager({
    callTimeoutMs: 1000,
    startTimeoutMs: 1000,
    restart: { maxAttempts: 0, baseDelayMs: 10 },
    idle: { mode: 'never', minutes: 0, turns: 0 },
    maxMessageBytes: 1 << 20,
  });
  const catalog = new Catalog(store);
  // The tools as an earlier run listed and pinned them; 'write' changed since and is held.
  catalog.record('unstable', [tool('read'), tool('write'), tool('remove')]);
  const trust = new ToolTrust(store);
  trust.check('unstable', [tool('read'), tool('write'), tool('remove')], 'allow');
  trust.check('unstable', [tool('read'), tool('write', 'now deletes things'), tool('remove')], 'quarantine');
  const settings = withOverrides(defaultSettings(), overrides);
  const sessions = new SessionRegistry(() => settings.sessions);
  const tools = new PowerTools({ registry, manager, catalog, trust, settings });
  let changes = 0;
  const activation = new Activation({
    sessions,
    tools,
    registry,
    manager,
    policy: new ToolPolicy(() => settings, trust),
    settings,
    markUsed: () => undefined,
    toolsChanged: () => (changes += 1),
  });
  try {
    await run({ activation, sessions, trust, changes: () => changes, settings });
  } finally {
    sessions.dispose();
    trust.close();
    registry.close();
    await manager.shutdown();
    await store.close();
    temp.cleanup();
  }
}

function handle(): SessionHandle & { told: number } {
  const h = { told: 0, toolsChanged: () => (h.told += 1), log: () => undefined, close: () => undefined };
  return h as unknown as SessionHandle & { told: number };
}

const powerTools = (activation: Activation, session?: string) =>
  activation
    .listTools(session)
    .slice(GATEWAY_TOOLS.length)
    .map((t) => t.name);

test("exposure lists an active power's tools, never a blocked one nor one held for review, and tells only on a change", async () => {
  await parts({ tools: { blocked: ['unstable:remove'] } }, async ({ activation, sessions, trust, changes }) => {
    const a = handle();
    const b = handle();
    sessions.open('a', a, false);
    sessions.open('b', b, false);
    sessions.state('a').active.add('unstable');
    activation.updateExposure();
    assert.deepEqual(powerTools(activation, 'a'), ['unstable__read']);
    assert.deepEqual(powerTools(activation, 'b'), [], 'the other session is untouched');
    assert.equal(a.told, 1);
    assert.equal(b.told, 0);
    assert.equal(changes(), 1);
    activation.updateExposure();
    assert.equal(changes(), 1, 'no change, no notice');
    assert.ok(
      activation.isActive('unstable', 'a') && !activation.isActive('unstable', 'b') && activation.isActive('unstable'),
    );

    trust.approve('unstable', 'write');
    activation.updateExposure();
    assert.deepEqual(powerTools(activation, 'a'), ['unstable__read', 'unstable__write']);
    assert.equal(a.told, 2);

    await activation.deactivate('unstable', 'a');
    assert.deepEqual(powerTools(activation, 'a'), []);
    assert.equal(activation.isActive('unstable'), false);
    assert.equal(changes(), 3);
  });
});

test('exposure: the cap counts tools in activation order; call-tools mode exposes none', async () => {
  await parts({ exposure: { maxTools: 1 } }, async ({ activation, sessions }) => {
    sessions.open('a', handle(), false);
    sessions.state('a').active.add('unstable');
    activation.updateExposure();
    assert.deepEqual(powerTools(activation, 'a'), ['unstable__read']);
  });
  await parts({ exposure: { mode: 'call-tools' } }, async ({ activation, sessions, changes }) => {
    sessions.open('a', handle(), false);
    sessions.state('a').active.add('unstable');
    activation.updateExposure();
    assert.deepEqual(powerTools(activation, 'a'), []);
    assert.equal(changes(), 0);
  });
});

test('activation refuses an unknown power and a disabled one alike, never naming the disabled one', async () => {
  await parts({ powers: { disabled: ['unstable'] } }, async ({ activation, sessions }) => {
    sessions.open('a', handle(), false);
    await assert.rejects(
      activation.activate('nope', 'a'),
      (error: unknown) =>
        error instanceof UnknownPowerError &&
        /Unknown power 'nope'.*Known powers: \(none configured\)\./.test(error.message) &&
        error.known.length === 0,
    );
    await assert.rejects(
      activation.activate('unstable', 'a'),
      (error: unknown) =>
        error instanceof UnknownPowerError &&
        /^Unknown power 'unstable'\. Known powers: \(none configured\)/.test(error.message),
    );
    await assert.rejects(
      activation.deactivate('nope', 'a'),
      (error: unknown) => error instanceof UnknownPowerError && !error.message.includes('unstable'),
    );
    assert.equal(sessions.state('a').active.size, 0);
  });
});
