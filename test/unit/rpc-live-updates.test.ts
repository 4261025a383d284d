import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import {
  HINTS_DEBOUNCE_MS,
  publishLiveUpdates,
  STATS_DEBOUNCE_MS,
  type LiveUpdatePorts,
} from '../../server/rpc/live-updates.js';
import * as protocol from '../../protocol/extension-methods.js';
import type * as records from '../../protocol/records.js';

/** The emitters and reads live updates use (their ports), counting the reads. */
function fakePorts() {
  const reads = { network: 0, stats: 0, tokens: 0 };
  const ports = {
    gatewayEvents: new EventEmitter(),
    activity: new EventEmitter(),
    hints: {
      events: Object.assign(new EventEmitter(), { followRates: () => [], recent: () => [] }),
    },
    powers: () => [{ name: 'memory' }],
    isActive: () => true,
    hintNetwork: (powers: string[]) => {
      reads.network += 1;
      return { nodes: powers.map((p) => ({ id: `${p}:a`, power: p, tool: 'a', calls: 1 })), edges: [] };
    },
    recommendations: { sums: async () => ((reads.stats += 1), {}) },
    store: { query: () => [] },
    settings: { ranking: { learn: true } },
    intel: {
      tokenReport: async () => {
        reads.tokens += 1;
        const totals = { results: 0, rawTokens: 0, deliveredTokens: 0, savedTokens: 0, reduction: 0 };
        return {
          tokenizer: 't',
          summarized: totals,
          byDay: [],
          byPower: [],
          bySummarizer: {},
          cache: { hits: 0, misses: 0, similar: 0, hitRate: 0 },
          notStored: 0,
          artifacts: { count: 0, bytes: 0, maxBytes: 1, ttlMinutes: 1 },
          toolsList: {
            gateway: { tools: 1, tokens: 1 },
            configured: { powers: 1, unlisted: 0, tools: 1, tokens: 1 },
            savedTokens: 0,
            reduction: 0,
            listedTwice: [],
          },
          sessions: {
            rows: [],
            totals: { gatewayTokens: 0, directTokens: 0, savedTokens: 0, reduction: 0, extraRequests: 0 },
          },
        };
      },
    },
  };
  return { ports: ports as unknown as LiveUpdatePorts, emitter: ports, reads };
}

const entry: records.ActivityInfo = {
  id: 'c1',
  at: 1,
  session: 's',
  power: 'memory',
  tool: 'a',
  variant: 'direct',
  decision: 'allowed',
  status: 'ok',
  latencyMs: 3,
  resultBytes: 9,
  audit: false,
  rating: 0,
};
test('calls and ratings go out at once; hints, stats and tokens once per burst, debounced; nothing after unsubscribing', async (t) => {
  // The debounce runs on node:test's fake clock: time passes when the test says so.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const advance = async (ms: number) => {
    t.mock.timers.tick(ms);
    // A debounced push runs on a promise, and the token report awaits: let them finish.
    await new Promise((resolve) => setImmediate(resolve));
  };
  const { ports, emitter, reads } = fakePorts();
  const sent: Array<{ method: string; params: unknown }> = [];
  const stop = publishLiveUpdates(ports, (type, params) => sent.push({ method: type.method, params }));
  const methods = () => sent.map((s) => s.method);

  emitter.activity.emit('recorded', entry);
  emitter.activity.emit('recorded', { ...entry, id: 'c2' });
  emitter.activity.emit('rated', { id: 'c1', rating: 1 });
  emitter.hints.events.emit('changed', {});
  assert.deepEqual(methods(), [
    protocol.activityRecorded.method,
    protocol.activityRecorded.method,
    protocol.activityRated.method,
  ]);
  assert.deepEqual(sent[2].params, { id: 'c1', rating: 1 });
  assert.equal((sent[0].params as records.ActivityInfo).rating, 0);

  await advance(HINTS_DEBOUNCE_MS + 100);
  assert.equal(methods().filter((m) => m === protocol.hintsChanged.method).length, 1, 'one hints push for the burst');
  const hints = sent.find((s) => s.method === protocol.hintsChanged.method)!.params as records.HintsPayload;
  assert.deepEqual([hints.scope, hints.powers, hints.nodes.length], ['active', ['memory'], 1]);
  assert.equal(reads.tokens, 0, 'tokens wait longer');

  await advance(STATS_DEBOUNCE_MS);
  assert.deepEqual([reads.stats, reads.tokens], [1, 1]);
  assert.ok(
    methods().includes(protocol.recommendationStatsChanged.method) &&
      methods().includes(protocol.tokenReportChanged.method),
  );

  emitter.gatewayEvents.emit('toolsChanged');
  stop();
  const count = sent.length;
  emitter.activity.emit('recorded', entry);
  await advance(HINTS_DEBOUNCE_MS + 100);
  assert.equal(sent.length, count, 'unsubscribed: nothing more, pending pushes cancelled');
  assert.equal(reads.network, 1);
});
