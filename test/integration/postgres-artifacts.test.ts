/**
 * Artifact bodies on PostgreSQL: a result stored through one replica's Intel is read with
 * read_artifact through another replica's store on the same database, byte for byte; the TTL sweep
 * and the size cap remove the bodies' rows from the database.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import pg from 'pg';
import type { CallToolResult } from '../../server/util/mcp-types.js';
import { Intel } from '../../server/intel/intel.js';
import { intelSettingsSchema, type IntelSettings } from '../../server/config/intel-settings.js';
import { InlineTokenizer } from '../../server/intel/tokens/tokenizer.js';
import { handleIntelTool } from '../../server/intel/tools/intel-tool-handlers.js';
import { setLogSink } from '../../server/log.js';
import { openStore } from '../../server/store/open-store.js';
import type { PgStore } from '../../server/store/postgres/pg-store.js';
import { useTestCluster } from '../helpers/test-cluster.js';
import { allText, bigText, context, stageRunner, summaryOf, textResult, type Harness } from '../unit/intel-helpers.js';

const postgres = useTestCluster();
const { skip } = postgres;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-pgart-'));
const MINUTE = 60_000;

before(async () => {
  setLogSink(() => undefined);
});
after(() => {
  setLogSink((line) => process.stderr.write(line + '\n'));
  fs.rmSync(root, { recursive: true, force: true });
});

interface Replica {
  h: Harness;
  store: PgStore;
}

/** Two replicas (own data dir, own store, own Intel) on one fresh database, sharing a clock. */
async function replicas(settings: Record<string, unknown>) {
  const url = await postgres.cluster.freshDatabase();
  const clock = { now: Date.UTC(2026, 0, 15, 12, 0, 0) };
  const parsed: IntelSettings = intelSettingsSchema.parse(settings);
  const open = async (): Promise<Replica> => {
    const dataDir = fs.mkdtempSync(path.join(root, 'r-'));
    const store = (await openStore({ dataDir, databaseUrl: url })) as PgStore;
    const intel = new Intel({ store, settings: () => parsed, tokenizer: new InlineTokenizer(), now: () => clock.now });
    const h = { intel, store, clock, settings: parsed, dataDir, close: async () => undefined } as unknown as Harness;
    return { h, store };
  };
  const a = await open();
  const b = await open();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const bodies = async () =>
    (await db.query<{ file: string }>('SELECT file FROM artifact_bodies ORDER BY file')).rows.map((r) => r.file);
  const late: Replica[] = [];
  const openLate = async () => {
    late.push(await open());
    return late[late.length - 1];
  };
  const close = async () => {
    await db.end();
    for (const r of [a, b, ...late]) {
      await r.h.intel.close();
      await r.store.close();
    }
  };
  return { a, b, clock, db, bodies, openLate, close };
}

async function readWhole(h: Harness, id: string): Promise<string> {
  let offset: number | null = 0;
  let text = '';
  while (offset !== null) {
    const page: CallToolResult = (await handleIntelTool(h.intel, 'read_artifact', { id, offset, limit: 8000 }, ''))!;
    assert.notEqual(page.isError, true, allText(page));
    text += (page.content![1] as { text: string }).text;
    offset = (page.structuredContent as { next_offset: number | null }).next_offset;
  }
  return text;
}

test(
  'an artifact stored through replica A is read whole with read_artifact through replica B; no file is written',
  { skip },
  async () => {
    const { a, b, db, bodies, openLate, close } = await replicas({});
    try {
      // A secret-shaped token (the store masks such text in other tables) and a NUL (not PostgreSQL text): both come back as they were.
      const raw = `${bigText(12_000)}\ntoken ghp_${'A1b2C3d4'.repeat(4)} and a NUL \u0000 here\n${bigText(3_000, 'beta')}`;
      const id = summaryOf(await stageRunner(a.h).run(context(a.h), textResult(raw))).metadata.artifactId as string;
      assert.match(id, /^art_/);
      await a.store.acknowledged();
      assert.deepEqual(await bodies(), [`${id}.txt`], 'the body is a row in PostgreSQL');
      assert.equal(fs.existsSync(path.join(a.h.dataDir, 'artifacts')), false, 'no artifact file on replica A');

      await b.store.catchUp();
      assert.equal(await readWhole(b.h, id), raw, 'replica B reads the exact raw text');
      assert.equal(await readWhole(a.h, id), raw);
      // The NUL in the summary and search text (other tables) no longer makes PostgreSQL reject the batch.
      assert.equal((await db.query('SELECT id FROM intel_artifacts')).rowCount, 1);
      const c = await openLate();
      assert.equal(await readWhole(c.h, id), raw, 'a replica started afterwards loads it from PostgreSQL');
    } finally {
      await close();
    }
  },
);

test(
  'the TTL sweep and the size cap delete the bodies from PostgreSQL; replica B then has nothing to read',
  { skip },
  async () => {
    const { a, b, clock, bodies, close } = await replicas({ artifacts: { ttlMinutes: 60, maxBytes: 8_000 } });
    try {
      const { run } = stageRunner(a.h);
      const first = summaryOf(await run(context(a.h), textResult(bigText(5_000, 'one')))).metadata.artifactId as string;
      clock.now += MINUTE;
      // 5,000 + 5,000 > 8,000: storing the second evicts the first.
      const second = summaryOf(
        await run(context(a.h, { args: { path: '/b' }, startedAt: clock.now }), textResult(bigText(5_000, 'two'))),
      ).metadata.artifactId as string;
      await a.store.acknowledged();
      assert.deepEqual(await bodies(), [`${second}.txt`], 'the evicted body is gone from PostgreSQL');
      await b.store.catchUp();
      assert.equal((await handleIntelTool(b.h.intel, 'read_artifact', { id: first }, ''))!.isError, true);
      assert.equal(await readWhole(b.h, second), bigText(5_000, 'two'));

      clock.now += 61 * MINUTE;
      assert.equal(await b.h.intel.artifacts.sweep(), 1, 'replica B sweeps the expired artifact');
      await b.store.acknowledged();
      assert.deepEqual(await bodies(), [], 'expiry removed the body row');
      await a.store.catchUp();
      const gone = (await handleIntelTool(a.h.intel, 'read_artifact', { id: second }, ''))!;
      assert.equal(gone.isError, true, 'replica A no longer serves it');
    } finally {
      await close();
    }
  },
);

test(
  "the stored results are not in a replica's memory: replica B lists and searches what A stored, and A's exact cache reads the database",
  { skip },
  async () => {
    const { a, b, close } = await replicas({});
    try {
      const optIn = { cacheTtlSeconds: 600 };
      const { run, upstream } = stageRunner(a.h);
      const result = textResult(bigText(6_000, 'inventory'));
      const id = summaryOf(await run(context(a.h, optIn), result)).metadata.artifactId as string;
      await a.store.acknowledged();
      assert.throws(
        () => b.store.query('SELECT COUNT(*) AS n FROM intel_artifacts'),
        /the intel_artifacts table is not held in memory: read it with read\(\)/,
      );
      assert.deepEqual(
        (await b.h.intel.artifacts.live(10, '')).map((r) => r.id),
        [id],
        'listed by replica B from the database',
      );
      const found = (await handleIntelTool(b.h.intel, 'semantic_search', { query: 'inventory', limit: 5 }, ''))!
        .structuredContent as { results: Array<{ id: string }> };
      assert.deepEqual([...new Set(found.results.map((r) => r.id))], [id], "replica B's search finds A's result");
      await run(context(a.h, { ...optIn, startedAt: a.h.clock.now }), result);
      assert.equal(upstream.calls, 1, 'the identical opted-in call is served from the cache, read in the database');
      assert.equal((await b.h.intel.artifacts.usage()).count, 1);
    } finally {
      await close();
    }
  },
);
