import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LEARNED_PER_POWER, LearnedRequests, withLearned } from '../../server/ranking/learned-requests.js';
import { RecommendationLog } from '../../server/ranking/recommendations.js';
import { NEUTRAL } from '../../server/ranking/usage-group.js';
import { DEFAULT_CALIBRATIONS } from '../../server/resolve/default-calibration.js';
import { HybridResolver } from '../../server/resolve/hybrid-resolver.js';
import { requestKeyOf } from '../../server/resolve/lexical-resolver.js';
import type { PowerDocument } from '../../server/resolve/types.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

const DAY = 24 * 3600 * 1000;

const powers: PowerDocument[] = [
  {
    name: 'tracker',
    description: 'Issues and tickets of the team board.',
    keywords: ['issue', 'ticket'],
    tools: [{ name: 'list_tickets' }, { name: 'close_ticket' }],
  },
  {
    name: 'notes',
    description: 'Personal notes and journal entries.',
    keywords: ['note', 'journal'],
    tools: [{ name: 'search_notes' }],
  },
  {
    name: 'weather',
    description: 'Forecasts for any city.',
    keywords: ['forecast'],
    tools: [{ name: 'get_forecast' }],
  },
];

async function withStore(run: (store: Store, clock: { now: number }) => Promise<void> | void): Promise<void> {
  const dir = tempDir();
  const store = await Store.open({ dataDir: dir.dir, fsync: false });
  try {
    await run(store, { now: Date.now() });
  } finally {
    store.close();
    dir.cleanup();
  }
}

/** What the gateway does: an answer recorded for the session, the agent's use of a power, then the call's outcome. */
async function replay(
  store: Store,
  learned: LearnedRequests,
  options: {
    session: string;
    query: string;
    offered: string[];
    used: string;
    tool: string;
    status: string;
    at: number;
  },
): Promise<boolean> {
  const log = new RecommendationLog(store);
  log.record(
    {
      session: options.session,
      source: 'resolve_intent',
      query: options.query,
      candidates: options.offered.map((name) => ({ name, relevance: 0.5, factors: NEUTRAL })),
    },
    options.at,
  );
  await log.markUsed(options.session, options.used, options.at + 1);
  return learned.learnFromCall({
    session: options.session,
    power: options.used,
    tool: options.tool,
    status: options.status,
    at: options.at + 2,
  });
}

async function rank(query: string, docs: PowerDocument[]) {
  const resolver = new HybridResolver(DEFAULT_CALIBRATIONS);
  resolver.index(docs);
  return resolver.rank(query);
}

test('a request that led to a successful call joins the power and tool documents and wins the next time', async () => {
  await withStore(async (store, clock) => {
    const learned = new LearnedRequests(store, () => clock.now);
    const query = 'what is blocking the sprint demo';
    assert.equal(
      (await rank(query, powers)).find((c) => c.name === 'tracker')!.score,
      0,
      'before learning, nothing links the words to the tracker',
    );
    assert.equal(
      await replay(store, learned, {
        session: 's1',
        query,
        offered: ['notes', 'tracker'],
        used: 'tracker',
        tool: 'list_tickets',
        status: 'ok',
        at: clock.now,
      }),
      true,
    );
    const docs = withLearned(powers, learned.documents());
    assert.deepEqual(docs.find((d) => d.name === 'tracker')!.learned, [{ text: query, weight: 1 }]);
    assert.deepEqual(docs.find((d) => d.name === 'tracker')!.tools.find((t) => t.name === 'list_tickets')!.learned, [
      { text: query, weight: 1 },
    ]);
    const again = await rank('What is blocking the sprint demo?', docs);
    assert.equal(again[0].name, 'tracker', 'a request seen before resolves to what worked');
    assert.equal(again[0].matchType, 'learned');
    assert.equal(
      (await rank('is anything blocking our sprint', docs))[0].name,
      'tracker',
      'a similar request is drawn the same way',
    );
  });
});

test('failed, rejected and suggested calls teach nothing', async () => {
  await withStore(async (store, clock) => {
    const learned = new LearnedRequests(store, () => clock.now);
    for (const [i, status] of ['error', 'rejected', 'suggested'].entries()) {
      assert.equal(
        await replay(store, learned, {
          session: `s${i}`,
          query: 'close the flaky ticket',
          offered: ['tracker'],
          used: 'tracker',
          tool: 'close_ticket',
          status,
          at: clock.now,
        }),
        false,
        status,
      );
    }
    assert.equal(learned.documents().powers.size, 0);
  });
});

test('a power the answer did not offer still learns the request the agent left unanswered', async () => {
  await withStore(async (store, clock) => {
    const learned = new LearnedRequests(store, () => clock.now);
    assert.equal(
      await replay(store, learned, {
        session: 's',
        query: 'jot down that the demo moved',
        offered: ['weather'],
        used: 'notes',
        tool: 'search_notes',
        status: 'ok',
        at: clock.now,
      }),
      true,
    );
    assert.deepEqual(
      learned
        .documents()
        .powers.get('notes')
        ?.map((l) => l.text),
      ['jot down that the demo moved'],
    );
  });
});

test('a request that needs two powers is learned for each that the answer offered and that succeeded', async () => {
  await withStore(async (store, clock) => {
    const learned = new LearnedRequests(store, () => clock.now);
    const log = new RecommendationLog(store);
    const query = 'note the tickets blocking the release';
    const offered = ['tracker', 'notes'].map((name) => ({ name, relevance: 0.5, factors: NEUTRAL }));
    log.record({ session: 's', source: 'resolve_intent', query, candidates: offered }, clock.now);
    await log.markUsed('s', 'tracker', clock.now + 1);
    assert.equal(
      await learned.learnFromCall({
        session: 's',
        power: 'tracker',
        tool: 'list_tickets',
        status: 'ok',
        at: clock.now + 2,
      }),
      true,
    );
    await log.markUsed('s', 'notes', clock.now + 3);
    assert.equal(
      await learned.learnFromCall({
        session: 's',
        power: 'notes',
        tool: 'search_notes',
        status: 'error',
        at: clock.now + 4,
      }),
      false,
      'a failed call of the second power teaches nothing',
    );
    assert.equal(
      await learned.learnFromCall({
        session: 's',
        power: 'notes',
        tool: 'search_notes',
        status: 'ok',
        at: clock.now + 5,
      }),
      true,
    );
    assert.equal(
      await learned.learnFromCall({
        session: 's',
        power: 'notes',
        tool: 'search_notes',
        status: 'ok',
        at: clock.now + 6,
      }),
      false,
      'one answer is learned once per tool',
    );
    const docs = learned.documents();
    assert.deepEqual(
      docs.powers.get('tracker')?.map((l) => l.text),
      [query],
    );
    assert.deepEqual(
      docs.powers.get('notes')?.map((l) => l.text),
      [query],
    );
    assert.deepEqual(
      docs.tools.get('notes:search_notes')?.map((l) => l.text),
      [query],
    );
  });
});

test('a power the answered request did not offer learns nothing from it', async () => {
  await withStore(async (store, clock) => {
    const learned = new LearnedRequests(store, () => clock.now);
    assert.equal(
      await replay(store, learned, {
        session: 's',
        query: 'close the flaky ticket',
        offered: ['tracker'],
        used: 'tracker',
        tool: 'close_ticket',
        status: 'ok',
        at: clock.now,
      }),
      true,
    );
    assert.equal(
      await learned.learnFromCall({
        session: 's',
        power: 'weather',
        tool: 'get_forecast',
        status: 'ok',
        at: clock.now + 10,
      }),
      false,
    );
    assert.equal(learned.documents().powers.get('weather'), undefined);
  });
});

test('a request counts as seen before whatever the order and repeats of its words', () => {
  assert.equal(requestKeyOf('Blocking the sprint demo?'), requestKeyOf('sprint demo blocked, blocking'));
  assert.equal(requestKeyOf('read a file'), requestKeyOf('Read the FILE.'));
  assert.notEqual(requestKeyOf('read a file'), requestKeyOf('read a file list'), 'another word is another request');
});

test('learned requests are capped per power and count less as they age; one answer is learned once', async () => {
  await withStore(async (store, clock) => {
    const learned = new LearnedRequests(store, () => clock.now);
    const start = clock.now;
    for (let i = 0; i < LEARNED_PER_POWER + 5; i += 1) {
      await replay(store, learned, {
        session: `s${i}`,
        query: `request number ${i}`,
        offered: ['tracker'],
        used: 'tracker',
        tool: 'list_tickets',
        status: 'ok',
        at: start + i * 10,
      });
    }
    const kept = learned.documents().powers.get('tracker')!;
    assert.equal(kept.length, LEARNED_PER_POWER);
    assert.ok(!kept.some((l) => l.text === 'request number 0'), 'the oldest went first');
    assert.equal(
      await learned.learnFromCall({
        session: `s${LEARNED_PER_POWER + 4}`,
        power: 'tracker',
        tool: 'list_tickets',
        status: 'ok',
        at: start + 1000,
      }),
      false,
      'a second call after the same answer adds nothing',
    );
    clock.now = start + 60 * DAY + 1000;
    assert.ok(
      Math.abs(learned.documents().powers.get('tracker')![0].weight - 0.5) < 1e-9,
      'half weight after the half-life',
    );
  });
});
