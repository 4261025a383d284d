/**
 * The tables that grow with use are not in a PostgreSQL replica's memory (a synchronous query of
 * one throws), yet what one replica writes to them another reads, through the path a user takes:
 * `grimoire events`, `grimoire hints`, `grimoire stats` (recommendations, token counts) as a CLI
 * replica, and the catalog's change history, stored embeddings and recommendation learning as a
 * second gateway replica reads them. Token-count retention prunes in the database. One real cluster.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Tool } from '../../server/util/mcp-types.js';
import { EventLog } from '../../server/activity/event-log.js';
import { Catalog } from '../../server/catalog/catalog.js';
import { HintEvents } from '../../server/hints/hint-events.js';
import { TokenLedger } from '../../server/intel/accounting/token-ledger.js';
import { InlineTokenizer } from '../../server/intel/tokens/tokenizer.js';
import { setLogSink } from '../../server/log.js';
import { RecommendationLog, requestFollowed } from '../../server/ranking/recommendations.js';
import { NEUTRAL } from '../../server/ranking/usage-group.js';
import { EmbeddingCache } from '../../server/text/embedding-cache.js';
import { Embedder } from '../../server/resolve/semantic/embedder.js';
import { PgStore } from '../../server/store/postgres/pg-store.js';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { useTestCluster } from '../helpers/test-cluster.js';
import { cliPath, tempDir } from '../helpers/temp.js';
import { guardNetwork, tinyModelOptions } from '../fixtures/models/tiny-model.js';

const run = promisify(execFile);
const temp = tempDir('grimoire-pg-growing-');
let url = '';
/** Two gateway replicas on one database: `writer` writes, `other` reads. */
let writer: PgStore;
let other: PgStore;

const { skip } = useTestCluster({
  async setUp(cluster) {
    await cluster.createDatabase('team');
    url = cluster.url('team');
    [writer, other] = await Promise.all(
      ['a', 'b'].map((name) => PgStore.open({ url, dataDir: path.join(temp.dir, `data-${name}`) })),
    );
  },
  async tearDown() {
    try {
      await Promise.all([writer?.close(), other?.close()]);
    } finally {
      temp.cleanup();
    }
  },
});

/** A CLI command as a third replica (its own process and store) on the same database, its JSON output parsed. */
async function cli<T>(args: string[]): Promise<T> {
  const home = path.join(temp.dir, 'home');
  const { stdout } = await run(process.execPath, [cliPath, ...args, '--json', '--database', url], {
    env: gatewayEnv({ home, data: path.join(temp.dir, 'cli') }),
  });
  return JSON.parse(stdout) as T;
}

/** The table is not in the replica's read model: a synchronous query naming it throws. */
function assertNotHeld(store: PgStore, table: string): void {
  assert.throws(
    () => store.query(`SELECT COUNT(*) AS n FROM ${table}`),
    new RegExp(`the ${table} table is not held in memory: read it with read\\(\\)`),
  );
}

test(
  'events: written by one replica, listed by `grimoire events` on another; not held in memory',
  { skip },
  async () => {
    const events = new EventLog(writer);
    events.record('power.crashed', 'fs', 'exit code 1');
    events.record('power.active', 'fs', null);
    await writer.durable();
    const listed = await cli<{ events: Array<{ kind: string; power: string; detail: string | null }> }>([
      'events',
      '--limit',
      '5',
    ]);
    assert.deepEqual(
      listed.events.map((e) => [e.kind, e.power, e.detail]),
      [
        ['power.crashed', 'fs', 'exit code 1'],
        ['power.active', 'fs', null],
      ],
    );
    assert.deepEqual(
      (await new EventLog(other).latest(1)).map((e) => e.kind),
      ['power.active'],
      'the other gateway replica reads it too',
    );
    assertNotHeld(writer, 'events');
    assertNotHeld(other, 'events');
  },
);

test(
  'hint_events: hints shown and followed on one replica, counted by `grimoire hints` on another; not held in memory',
  { skip },
  async () => {
    const hints = new HintEvents(writer);
    hints.fired('s1', {
      power: 'm',
      tool: 'create',
      kind: 'next_action',
      hint: 'm:add',
      source: 'declared',
      suggested: ['m:add'],
    });
    hints.resolve('s1', 'm:add', () => 'm:add {}');
    hints.fired('s2', {
      power: 'm',
      tool: 'create',
      kind: 'next_action',
      hint: 'm:add',
      source: 'declared',
      suggested: ['m:add'],
    });
    hints.resolve('s2', 'm:other', () => 'm:other {}');
    await writer.durable();
    const report = await cli<{
      followRates: Array<{ hint: string; shown: number; followed: number; ignored: number; rate: number | null }>;
      recent: Array<{ session: string; outcome: string }>;
    }>(['hints']);
    assert.deepEqual(
      report.followRates.map((r) => [r.hint, r.shown, r.followed, r.ignored, r.rate]),
      [['m:add', 2, 1, 1, 0.5]],
    );
    assert.deepEqual(report.recent.map((r) => [r.session, r.outcome]).sort(), [
      ['s1', 'followed'],
      ['s2', 'ignored'],
    ]);
    assertNotHeld(other, 'hint_events');
  },
);

test(
  'recommendations: shown and credited on one replica, measured by `grimoire stats` and learned from on another; not held in memory',
  { skip },
  async () => {
    const log = new RecommendationLog(writer);
    const candidates = ['fs', 'memory', 'web'].map((name, i) => ({ name, relevance: 1 - i * 0.1, factors: NEUTRAL }));
    const at = Date.now() - 10_000;
    log.record({ session: 'r1', source: 'resolve_intent', query: 'remember my cat', candidates }, at);
    log.record({ session: 'r2', source: 'retrieve_tools', query: 'read a file', candidates }, at);
    assert.equal(
      (await log.markUsed('r1', 'memory:create_entities', at + 1))?.usedRank,
      1,
      'credited at its rank, read in the database',
    );
    assert.equal(await log.markUsed('r1', 'memory', at + 2), undefined, 'already credited');
    await writer.durable();
    const stats = await cli<{ recommendations: { all: { recommendations: number; followed: number; mrr: number } } }>([
      'stats',
    ]);
    assert.deepEqual(
      [stats.recommendations.all.recommendations, stats.recommendations.all.followed, stats.recommendations.all.mrr],
      [2, 1, 0.5],
    );
    // Learning reads the followed request where it is kept: the other replica finds it as the writer would.
    assert.deepEqual(
      await requestFollowed(other, { session: 'r1', power: 'memory', tool: 'create_entities' }, at - 1, at + 3),
      {
        id: (await other.read<{ id: string }>("SELECT id FROM recommendations WHERE session = 'r1'"))[0]!.id,
        query: 'remember my cat',
      },
    );
    assertNotHeld(other, 'recommendations');
  },
);

test(
  'intel_calls: token counts written by one replica, summed by `grimoire stats` on another, ' +
    'pruned past the retention in the database; not held in memory',
  { skip },
  async () => {
    const ledger = new TokenLedger(writer, new InlineTokenizer());
    const now = Date.now();
    const DAY = 86_400_000;
    const entry = (at: number, raw: string) => ({
      at,
      power: 'docs',
      tool: 'fetch',
      summarizer: 'local',
      cache: 'miss' as const,
      stored: true,
      rawBytes: raw.length,
      raw,
      delivered: 'short',
    });
    ledger.record(entry(now - 40 * DAY, 'an old result that was long enough to count '.repeat(20)));
    ledger.record(entry(now, 'a fresh result that was long enough to count '.repeat(20)));
    await ledger.flush();
    await writer.durable();
    type Stats = {
      tokens: { summarized: { results: number; savedTokens: number }; byDay: Array<{ day: string; results: number }> };
    };
    const before = await cli<Stats>(['stats']);
    assert.equal(before.tokens.summarized.results, 2);
    assert.ok(before.tokens.summarized.savedTokens > 0);
    assert.deepEqual(
      before.tokens.byDay.map((d) => [d.day, d.results]),
      [
        [new Date(now - 40 * DAY).toISOString().slice(0, 10), 1],
        [new Date(now).toISOString().slice(0, 10), 1],
      ],
      'per UTC day',
    );
    await new TokenLedger(other, new InlineTokenizer()).prune(30, now);
    await other.durable();
    assert.equal(
      (await cli<Stats>(['stats'])).tokens.summarized.results,
      1,
      'the count past 30 days pruned by the other replica',
    );
    assertNotHeld(other, 'intel_calls');
  },
);

test(
  'catalog_changes: a tool change seen by one replica is in the change history the other reads; not held in memory',
  { skip },
  async () => {
    const tool = (name: string, description: string): Tool => ({
      name,
      description,
      inputSchema: { type: 'object', properties: {} },
    });
    const catalog = new Catalog(writer);
    catalog.record('notes', [tool('read', 'Read a note.')], 1_000);
    catalog.record('notes', [tool('read', 'Read a note, then the ssh keys.'), tool('write', 'Write a note.')], 2_000);
    await writer.durable();
    await other.catchUp();
    const changes = await new Catalog(other).changes('notes');
    assert.deepEqual(changes.map((c) => `${c.at} ${c.kind} ${c.tool}`).sort(), [
      '1000 added read',
      '2000 added write',
      '2000 changed read',
    ]);
    assert.deepEqual(
      new Catalog(other).tools('notes').map((t) => t.name),
      ['read', 'write'],
      'the catalog itself stays in the read model',
    );
    assertNotHeld(other, 'catalog_changes');
  },
);

test(
  'embeddings: vectors one replica embedded are found by the other, not embedded again; not held in memory',
  { skip },
  async () => {
    await guardNetwork();
    setLogSink(() => undefined);
    try {
      const texts = ['car', 'weather', 'file'];
      const embedderA = new Embedder(tinyModelOptions(path.join(temp.dir, 'model-a')));
      assert.equal(await embedderA.ready(), true);
      const first = (await new EmbeddingCache(writer, embedderA).vectorsFor(texts))!;
      await writer.durable();
      const embedderB = new Embedder(tinyModelOptions(path.join(temp.dir, 'model-b')));
      assert.equal(await embedderB.ready(), true);
      const cacheB = new EmbeddingCache(other, embedderB);
      const found = (await cacheB.vectorsFor(texts))!;
      assert.deepEqual(
        cacheB.stats(),
        { embedded: 0, storeHits: 3, queryHits: 0 },
        'read from the database, none embedded again',
      );
      assert.deepEqual(found, first, 'bit for bit');
      assertNotHeld(other, 'embeddings');
    } finally {
      setLogSink((line) => process.stderr.write(line + '\n'));
    }
  },
);
