import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, textOf } from '../helpers/gateway-process.js';
import { cliPath, tempDir } from '../helpers/temp.js';

/** Hints against the real server-memory demo power, through a real MCP client. */
async function memorySession(settings?: object) {
  const home = tempDir();
  if (settings) fs.writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify(settings));
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  const session = await connectStdio(['--demo', '--no-imports'], env);
  const activated = payload(await session.client.callTool({ name: 'activate_power', arguments: { name: 'memory' } }));
  assert.equal(activated.status, 'activated');
  const call = (tool: string, args: Record<string, unknown> = {}) =>
    session.client.callTool({ name: `memory__${tool}`, arguments: args });
  const hints = () =>
    JSON.parse(
      execFileSync(process.execPath, [cliPath, 'hints', '--json', '--power', 'memory', '--demo', '--no-imports'], {
        env,
        encoding: 'utf8',
      }),
    );
  return { home, env, session, call, hints };
}

const entity = (name: string) => ({ entities: [{ name, entityType: 'test', observations: ['made in a test'] }] });

test(
  'create without search -> suggestion (nothing created); calling again runs it; ' +
    'search first runs at once with next actions',
  async () => {
    const { home, env, session, call, hints } = await memorySession();
    try {
      await session.client.listTools(); // the client now validates results against output schemas, as editors do
      const first = await call('create_entities', entity('Alpha'));
      const suggestion = JSON.parse(textOf(first));
      assert.equal(suggestion.status, 'PREREQUISITE_SUGGESTED');
      assert.deepEqual(suggestion.missing, ['memory:search_nodes']);
      assert.equal(suggestion.can_proceed, true);
      assert.equal(
        first.isError,
        true,
        'create_entities has an output schema: the suggestion rides as an error result',
      );
      assert.equal((first._meta?.['grimoire/hints'] as { status: string }).status, 'PREREQUISITE_SUGGESTED');

      const again = await call('create_entities', entity('Alpha'));
      assert.match(textOf(again), /Alpha/, 'calling again runs it');
      assert.match(textOf(again), /Suggested next actions: memory:create_relations, memory:add_observations/);
      const meta = again._meta?.['grimoire/hints'] as {
        suggested_next_actions: Array<{ tool: string; source: string }>;
      };
      assert.deepEqual(
        meta.suggested_next_actions.map((a) => a.tool),
        ['memory:create_relations', 'memory:add_observations'],
      );

      await call('add_observations', { observations: [{ entityName: 'Alpha', contents: ['followed the hint'] }] });
      const report = hints();
      const rates = report.followRates;
      const prerequisite = rates.find((r: { kind: string }) => r.kind === 'prerequisite');
      assert.equal(prerequisite.proceeded, 1, 'calling again counts as proceeding past the prerequisite');
      const next = rates.find(
        (r: { kind: string; tool: string }) => r.kind === 'next_action' && r.tool === 'create_entities',
      );
      assert.equal(next.followed, 1);
      assert.equal(next.rate, 1);
      const statuses = JSON.parse(
        execFileSync(process.execPath, [cliPath, 'activity', 'list', '--json', '--tool', 'create_entities'], {
          env,
          encoding: 'utf8',
        }),
      ).activity.map((r: { status: string }) => r.status);
      assert.deepEqual(statuses, ['ok', 'suggested'], 'the first call never reached the server');
    } finally {
      await session.client.close();
      home.cleanup();
    }
  },
);

test('search then create runs straight away; proceed: true skips the suggestion; a child error carries its hint', async () => {
  const { home, session, call, hints } = await memorySession();
  try {
    await call('search_nodes', { query: 'Beta' });
    const created = await call('create_entities', entity('Beta'));
    assert.match(textOf(created), /"name": "Beta"|Beta/);
    assert.match(textOf(created), /Suggested next actions/);

    const proceeded = await session.client.callTool({
      name: 'call_tool_destructive',
      arguments: {
        name: 'memory:delete_entities',
        args: { entityNames: ['Beta'] },
        intent: { operation_type: 'destructive' },
        proceed: true,
      },
    });
    assert.doesNotMatch(textOf(proceeded), /PREREQUISITE_SUGGESTED/);

    const failed = await call('add_observations', { observations: [{ entityName: 'Nobody', contents: ['x'] }] });
    assert.equal(failed.isError, true);
    assert.match(textOf(failed), /Entity with name Nobody not found/);
    assert.match(textOf(failed), /Hint: That entity does not exist yet/);
    // The same call again ignores the hint (and fails, showing it again); another call follows it.
    const retried = await call('add_observations', { observations: [{ entityName: 'Nobody', contents: ['x'] }] });
    assert.match(textOf(retried), /Hint: That entity does not exist yet/);
    await call('search_nodes', { query: 'Nobody' });
    const errorHint = hints().followRates.find((r: { kind: string }) => r.kind === 'error_hint');
    assert.deepEqual([errorHint.shown, errorHint.ignored, errorHint.followed], [2, 1, 1]);
  } finally {
    await session.client.close();
    home.cleanup();
  }
});

test('learned transitions appear after repeated sequences and respect the support minimum; audit tools are flagged', async () => {
  const { home, env, session, call, hints } = await memorySession({ hints: { minSupport: 3 } });
  try {
    await call('create_entities', entity('Gamma'));
    await call('create_entities', entity('Gamma'));
    for (let round = 0; round < 2; round += 1) {
      assert.doesNotMatch(
        textOf(await call('open_nodes', { names: ['Gamma'] })),
        /learned/,
        `round ${round}: below the minimum`,
      );
      await call('read_graph');
    }
    const third = await call('open_nodes', { names: ['Gamma'] });
    await call('read_graph');
    const fourth = await call('open_nodes', { names: ['Gamma'] });
    assert.doesNotMatch(textOf(third), /learned/, 'two transitions seen: still below 3');
    assert.match(textOf(fourth), /memory:read_graph \(learned: followed this 3 times\)/);
    const network = hints().network;
    assert.ok(
      network.edges.some(
        (e: { from: string; to: string; source: string }) =>
          e.from === 'memory:open_nodes' && e.to === 'memory:read_graph' && e.source === 'learned',
      ),
    );
    assert.ok(
      network.edges.some(
        (e: { from: string; to: string; kind: string }) =>
          e.from === 'memory:search_nodes' && e.to === 'memory:create_entities' && e.kind === 'prerequisite',
      ),
    );

    await session.client.callTool({
      name: 'call_tool_destructive',
      arguments: {
        name: 'memory:delete_entities',
        args: { entityNames: ['Gamma'] },
        intent: { operation_type: 'destructive' },
        proceed: true,
      },
    });
    const rows = JSON.parse(
      execFileSync(process.execPath, [cliPath, 'activity', 'list', '--json', '--tool', 'delete_entities'], {
        env,
        encoding: 'utf8',
      }),
    ).activity;
    assert.equal(rows[0].audit, true, 'audit: true tools are flagged in the activity log');
  } finally {
    await session.client.close();
    home.cleanup();
  }
});

test('learning can be switched off', async () => {
  const { home, session, call } = await memorySession({ hints: { learn: false, minSupport: 1 } });
  try {
    await call('open_nodes', { names: ['x'] });
    await call('read_graph');
    assert.doesNotMatch(textOf(await call('open_nodes', { names: ['x'] })), /Suggested next actions/);
  } finally {
    await session.client.close();
    home.cleanup();
  }
});
