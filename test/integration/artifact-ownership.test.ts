import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import pg from 'pg';
import {
  connectHttp,
  gatewayEnv,
  payload,
  startHttpGateway,
  textOf,
  type HttpGatewayProcess,
} from '../helpers/gateway-process.js';
import { everythingSpell, everythingStdioServer } from '../helpers/everything-spell.js';
import { acceptedEverywhere, addTeamUser } from '../helpers/team-users.js';
import { useTestCluster } from '../helpers/test-cluster.js';
import { tempDir, writeSpell } from '../helpers/temp.js';

/**
 * A team gateway (`serve --http` on a real PostgreSQL): a stored result is its user's. Member B's
 * read_artifact, get_artifact_context and semantic_search do not see what member A's calls stored
 * (nor does the gateway's own token); A reads it in full.
 */
let gateway: HttpGatewayProcess | undefined;
const temp = tempDir('grimoire-artifact-owners-');
const home = path.join(temp.dir, 'home');
let url = '';

const { skip } = useTestCluster({
  async setUp(cluster) {
    await cluster.createDatabase('team');
    url = cluster.url('team');
    writeSpell(home, 'everything', everythingSpell(everythingStdioServer));
    gateway = await startHttpGateway(
      ['--spells', home, '--no-imports'],
      gatewayEnv({ home, data: path.join(temp.dir, 'data') }, { GRIMOIRE_DATABASE_URL: url }),
    );
  },
  async tearDown() {
    try {
      await gateway?.stop();
    } finally {
      temp.cleanup();
    }
  },
});

async function addUser(name: string): Promise<string> {
  const token = await addTeamUser(
    { databaseUrl: url, env: gatewayEnv({ home, data: path.join(temp.dir, 'cli') }) },
    name,
  );
  await acceptedEverywhere(token, [gateway!]);
  return token;
}

/** A result long enough to be summarized and stored, about one account. */
function ledger(marker: string): string {
  const lines = [];
  for (let i = 0; i < 120; i++)
    lines.push(
      `${marker} ledger line ${i}: invoice ${marker}-${1000 + i} paid by account ` +
        `${marker.toLowerCase()}-holder, amount ${(i * 37) % 997} EUR.`,
    );
  return lines.join('\n');
}

test(
  "team mode: a member's read_artifact, get_artifact_context and semantic_search see only their own stored results",
  { skip, timeout: 90_000 },
  async () => {
    const [aliceToken, bobToken] = [await addUser('alice'), await addUser('bob')];
    const alice = await connectHttp(gateway!.url, aliceToken);
    const bob = await connectHttp(gateway!.url, bobToken);
    const owner = await connectHttp(gateway!.url, gateway!.token);
    try {
      for (const s of [alice, bob])
        assert.equal(
          payload(await s.client.callTool({ name: 'activate_power', arguments: { name: 'everything' } })).status,
          'activated',
        );
      const stored = async (session: typeof alice, marker: string) => {
        const result = await session.client.callTool({
          name: 'everything__echo',
          arguments: { message: ledger(marker) },
        });
        const id = (result._meta as Record<string, { artifactId?: string }> | undefined)?.['grimoire/summary']
          ?.artifactId;
        assert.ok(id, `a stored result: ${JSON.stringify(result).slice(0, 400)}`);
        return id;
      };
      const aliceId = await stored(alice, 'ZEPHYR');
      const bobId = await stored(bob, 'QUOKKA');

      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const rows = (
          await db.query<{ id: string; owner: string | null }>('SELECT id, owner FROM intel_artifacts ORDER BY id')
        ).rows;
        assert.deepEqual(Object.fromEntries(rows.map((r) => [r.id, r.owner])), { [aliceId]: 'alice', [bobId]: 'bob' });
      } finally {
        await db.end();
      }

      // Alice reads her own in full.
      assert.match(
        textOf(await alice.client.callTool({ name: 'read_artifact', arguments: { id: aliceId } })),
        /ZEPHYR ledger line 0/,
      );

      for (const [who, session] of [
        ['bob', bob],
        ["the gateway's own token", owner],
      ] as const) {
        const read = await session.client.callTool({ name: 'read_artifact', arguments: { id: aliceId } });
        assert.equal(read.isError, true, `${who}: ${textOf(read)}`);
        assert.doesNotMatch(textOf(read), /ZEPHYR ledger/);
        const context = await session.client.callTool({
          name: 'get_artifact_context',
          arguments: { ids: [aliceId], maxTokens: 2000 },
        });
        assert.doesNotMatch(
          textOf(context),
          /ZEPHYR ledger|invoice ZEPHYR/,
          `${who}: ${textOf(context).slice(0, 300)}`,
        );
        const passages = await session.client.callTool({
          name: 'get_artifact_context',
          arguments: { ids: [aliceId], maxTokens: 2000, query: 'ZEPHYR invoice' },
        });
        assert.doesNotMatch(
          textOf(passages),
          /ZEPHYR ledger|invoice ZEPHYR/,
          `${who}: ${textOf(passages).slice(0, 300)}`,
        );
        const search = payload(
          await session.client.callTool({
            name: 'semantic_search',
            arguments: { query: 'ZEPHYR ledger invoice paid', limit: 10 },
          }),
        );
        assert.ok(
          !(search.results as Array<{ id: string }>).some((r) => r.id === aliceId),
          `${who} found alice's result: ${JSON.stringify(search).slice(0, 400)}`,
        );
        assert.doesNotMatch(JSON.stringify(search), /ZEPHYR/);
      }
      // Bob's search finds his own.
      const bobSearch = payload(
        await bob.client.callTool({
          name: 'semantic_search',
          arguments: { query: 'QUOKKA ledger invoice paid', limit: 10 },
        }),
      );
      assert.ok(
        (bobSearch.results as Array<{ id: string }>).some((r) => r.id === bobId),
        JSON.stringify(bobSearch).slice(0, 400),
      );
    } finally {
      for (const s of [alice, bob, owner]) await s.client.close().catch(() => undefined);
    }
  },
);
