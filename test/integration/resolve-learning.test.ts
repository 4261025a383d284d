import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, waitFor } from '../helpers/gateway-process.js';
import { cliPath, repoRoot, tempDir } from '../helpers/temp.js';

const tinyModel = path.join(repoRoot, 'test', 'fixtures', 'models', 'tiny-embedder');

test('resolve_intent explains itself, the agent’s choice is credited, and stats and activity show it', async () => {
  const home = tempDir();
  fs.writeFileSync(
    path.join(home.dir, 'settings.json'),
    JSON.stringify({ resolve: { semantic: { model: tinyModel } } }),
  );
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }, { GRIMOIRE_LOG: 'debug' });
  const session = await connectStdio(['--demo', '--no-imports'], env);
  const cli = (...args: string[]) =>
    JSON.parse(execFileSync(process.execPath, [cliPath, ...args], { env, encoding: 'utf8' }));
  try {
    const first = payload(
      await session.client.callTool({
        name: 'resolve_intent',
        arguments: { query: 'remember facts in the knowledge graph', explain: true },
      }),
    );
    assert.equal(first.status, 'activated', JSON.stringify(first));
    assert.equal(first.power.name, 'memory');
    const why = first.power.explain;
    assert.ok(why.relevance.matched_terms.length > 0 && why.relevance.coverage > 0, JSON.stringify(why));
    assert.ok(why.learned.contributions.relevance > 0, 'factor contributions are given');
    assert.equal(typeof why.learned.moved_by_history, 'boolean');

    const call = await session.client.callTool({ name: 'memory__read_graph', arguments: {} });
    assert.notEqual(call.isError, true);

    const stats = cli('stats', '--json');
    assert.equal(stats.recommendations.resolveIntent.followed, 1, JSON.stringify(stats));
    assert.equal(stats.recommendations.resolveIntent.mrr, 1);
    assert.equal(stats.calls.ok, 1);

    const [row] = cli('activity', 'list', '--json').activity;
    assert.equal(`${row.power}:${row.tool}`, 'memory:read_graph');
    execFileSync(process.execPath, [cliPath, 'activity', 'rate', row.id.slice(-8), 'up'], { env });
    assert.equal(cli('activity', 'list', '--json').activity[0].rating, 1);

    // The model loads in the background after start-up; a loaded machine may still be loading it here.
    let resolver: unknown;
    await waitFor(
      async () => {
        resolver = payload(
          await session.client.callTool({ name: 'resolve_intent', arguments: { query: 'zzz qqq', explain: true } }),
        ).resolver;
        return (resolver as { mode?: string } | undefined)?.mode === 'hybrid';
      },
      30_000,
      'the tiny model loaded through the settings (resolver mode hybrid)',
    ).catch((error: Error) => {
      // Say why the model is not there: the resolver's status, and the gateway's own log.
      throw new Error(
        `${error.message}; resolver: ${JSON.stringify(resolver)}; gateway log: ${session.stderr.join('').slice(-2000)}`,
      );
    });
  } finally {
    await session.client.close();
    home.cleanup();
  }
});
