import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, isAlive, payload, textOf, waitFor } from '../helpers/gateway-process.js';
import { tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';

async function start(settings?: object) {
  const home = tempDir();
  const spells = path.join(home.dir, 'spells');
  fs.mkdirSync(spells, { recursive: true });
  if (settings) fs.writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify(settings));
  const session = await connectStdio(
    ['--spells', spells, '--no-imports'],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
  );
  return { home, spells, session };
}

test('spell files are watched: added, changed (the edited steering comes with the next activation) and removed powers', async () => {
  const { home, spells, session } = await start();
  try {
    const before = payload(await session.client.callTool({ name: 'activate_power', arguments: { name: 'unstable' } }));
    assert.match(before.error, /Unknown power 'unstable'/);

    writeSpell(spells, 'unstable', unstableSpell());
    await waitFor(
      async () => {
        const result = payload(
          await session.client.callTool({ name: 'activate_power', arguments: { name: 'unstable' } }),
        );
        return result.status === 'activated';
      },
      10_000,
      'the new spell to load',
    );

    writeSpell(
      spells,
      'unstable',
      unstableSpell().replace('Test guidance for the unstable server.', 'Fresh guidance after an edit.'),
    );
    await waitFor(
      async () => {
        const result = payload(
          await session.client.callTool({ name: 'activate_power', arguments: { name: 'unstable' } }),
        );
        return /Fresh guidance after an edit/.test(result.guidance ?? '');
      },
      10_000,
      'the edited steering to show',
    );
    const { tools } = await session.client.listTools();
    assert.ok(
      tools.some((t) => t.name === 'unstable__echo'),
      'still exposed',
    );
    assert.ok(
      !tools.some((t) => t.name.startsWith('unstable__') && /guidance/i.test(t.description ?? '')),
      'steering stays out of the tool descriptions',
    );

    fs.rmSync(path.join(spells, 'unstable.spell.yaml'));
    await waitFor(
      async () => !(await session.client.listTools()).tools.some((t) => t.name.startsWith('unstable__')),
      10_000,
      'tools of the removed power to go',
    );
  } finally {
    await session.client.close();
    home.cleanup();
  }
});

test('a reload never kills a power in the middle of a call', async () => {
  const { home, spells, session } = await start();
  try {
    writeSpell(spells, 'unstable', unstableSpell());
    await waitFor(
      async () =>
        payload(await session.client.callTool({ name: 'activate_power', arguments: { name: 'unstable' } })).status ===
        'activated',
      10_000,
      'spell to load',
    );
    const slow = session.client.callTool({ name: 'unstable__slow', arguments: { ms: 1500 } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    fs.rmSync(path.join(spells, 'unstable.spell.yaml'));
    const result = await slow;
    assert.notEqual(result.isError, true, textOf(result));
    assert.equal(textOf(result), 'slept 1500');
  } finally {
    await session.client.close();
    home.cleanup();
  }
});

test('idle by turns: the server stops after N turns elsewhere, its tools stay, the next call restarts it', async () => {
  const { home, spells, session } = await start({ upstream: { idle: { mode: 'turns', turns: 2 } } });
  try {
    writeSpell(spells, 'unstable', unstableSpell());
    await waitFor(
      async () =>
        payload(await session.client.callTool({ name: 'activate_power', arguments: { name: 'unstable' } })).status ===
        'activated',
      10_000,
      'spell to load',
    );
    const pid = Number(textOf(await session.client.callTool({ name: 'unstable__pid', arguments: {} })));
    assert.ok(isAlive(pid));
    for (let turn = 0; turn < 2; turn += 1)
      await session.client.callTool({ name: 'resolve_intent', arguments: { query: 'anything else' } });
    await waitFor(() => !isAlive(pid), 10_000, 'the idle server to stop');
    const { tools } = await session.client.listTools();
    assert.ok(
      tools.some((t) => t.name === 'unstable__echo'),
      'tools stay exposed while the server sleeps',
    );
    const echo = await session.client.callTool({ name: 'unstable__echo', arguments: { text: 'wake up' } });
    assert.equal(textOf(echo), 'echo: wake up');
  } finally {
    await session.client.close();
    home.cleanup();
  }
});
