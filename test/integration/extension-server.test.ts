/**
 * The extension's gateway process (server/extension-main.ts) driven the way vscode-languageclient
 * drives it: forked with --node-ipc, JSON-RPC messages over the IPC channel.
 */
import { FITTED_ACTIVATE_THRESHOLD } from '../../server/resolve/default-calibration.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectHttp, gatewayEnv, isAlive, payload, textOf, waitFor } from '../helpers/gateway-process.js';
import { IpcPeer } from '../helpers/ipc-peer.js';
import { repoRoot, tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';
import * as protocol from '../../protocol/extension-methods.js';
import type {
  ActivityFilterInfo,
  ActivityInfo,
  ActivityPage,
  ActivityRated,
  Endpoint,
  GatewayStatus,
  HintsPayload,
  PowerInfo,
  PowersPayload,
  PowerStateChange,
  RecommendationStats,
  ResolveResult,
  TokenReportInfo,
  TuneWeightsResult,
} from '../../protocol/records.js';
import type { ClientSettings } from '../../protocol/client-settings-schema.js';

const entry = path.join(repoRoot, 'out', 'server', 'extension-main.js');

const settings = (overrides: Partial<ClientSettings> = {}): ClientSettings => ({
  demoPowers: true,
  spellFolders: [],
  gateway: { imports: { vscode: false, claudeDesktop: false }, discovery: { enabled: false } },
  ...overrides,
});

let home: { dir: string; cleanup: () => void };
let peer: IpcPeer;

before(async () => {
  home = tempDir();
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  writeSpell(path.join(home.dir, 'extra'), 'unstable', unstableSpell());
  const child = fork(entry, ['--node-ipc', `--clientProcessId=${process.pid}`], {
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  peer = new IpcPeer(child);
  const init = await peer.request(
    { method: 'initialize' },
    {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
      initializationOptions: { settings: settings({ spellFolders: [path.join(home.dir, 'extra')] }) },
    },
  );
  // The spell language server's features (server/spells/).
  const capabilities = (init as { capabilities: Record<string, unknown> }).capabilities;
  assert.deepEqual(capabilities.textDocumentSync, { openClose: true, change: 1 });
  assert.equal(capabilities.hoverProvider, true);
  peer.notify('initialized', {});
});

after(async () => {
  await peer.stop();
  home.cleanup();
});

test('serves the MCP endpoint once ready: the token works over Streamable HTTP and the status says ready', async () => {
  const endpoint = await peer.request<null, Endpoint>(protocol.getEndpoint, null);
  assert.match(endpoint.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  assert.ok(endpoint.token.length >= 32);
  assert.equal(endpoint.version, 1);
  const { client } = await connectHttp(endpoint.url, endpoint.token);
  const tools = await client.listTools();
  assert.ok(tools.tools.some((tool) => tool.name === 'resolve_intent'));
  await client.close();
  await waitFor(() => peer.last(protocol.statusChanged)?.health === 'ready', 5000, 'a ready status notification');
  const status = await peer.request<null, GatewayStatus>(protocol.getStatus, null);
  assert.equal(status.health, 'ready');
  // How requests are matched: once the model has loaded or is known to be unavailable, a status push says so.
  await waitFor(
    () => ['ready', 'unavailable', 'off'].includes(peer.last(protocol.statusChanged)?.matching?.semantic ?? ''),
    30_000,
    'a status push with the semantic model settled',
  );
  const matching = peer.last(protocol.statusChanged)!.matching!;
  if (matching.mode === 'hybrid') assert.equal(matching.semantic, 'ready', 'matching by meaning needs the model');
  assert.match(matching.detail, /^lexical BM25F/);
  assert.equal(status.url, endpoint.url);
  assert.equal(status.powers, 4);
  assert.ok(
    !JSON.stringify(peer.notifications).includes(endpoint.token),
    'the token is never pushed in a notification',
  );
  assert.ok(!peer.stderr.join('').includes(endpoint.token), 'the token is never logged');
});

test('lists the demo powers and the extra spell folder with their source, state and tools', async () => {
  const payload = await peer.request<null, PowersPayload>(protocol.listPowers, null);
  const names = payload.powers.map((power) => power.name).sort();
  assert.deepEqual(names, ['everything', 'filesystem', 'memory', 'unstable']);
  const memory = payload.powers.find((power) => power.name === 'memory')!;
  assert.equal(memory.source.kind, 'demo');
  assert.ok(memory.source.file.endsWith('memory.spell.yaml'));
  assert.equal(memory.state, 'stopped');
  assert.equal(memory.active, false);
  assert.equal(payload.powers.find((power) => power.name === 'unstable')!.source.kind, 'spell');
});

test('resolve scores every power with its own band and gives the tier by the thresholds', async () => {
  const result = await peer.request<protocol.ResolveParams, ResolveResult>(protocol.resolveIntent, {
    query: 'remember facts in the knowledge graph',
  });
  assert.equal(result.scores.length, 4);
  assert.equal(result.scores[0].name, 'memory');
  assert.ok(['activated', 'multiple_matches'].includes(result.tier), result.tier);
  for (const score of result.scores) {
    assert.ok(score.confidence >= 0 && score.confidence <= 1);
    const t = result.thresholds;
    const expected =
      score.confidence >= t.activateThreshold
        ? 'activated'
        : score.confidence >= t.multipleThreshold
          ? 'multiple_matches'
          : score.confidence >= t.weakThreshold
            ? 'weak_matches'
            : 'not_found';
    assert.equal(score.band, expected);
  }
  await assert.rejects(
    peer.request(protocol.resolveIntent, { query: '  ' }),
    (error: Error & { code?: number }) => error.code === protocol.GATEWAY_ERROR && /empty/.test(error.message),
  );
});

test('activate starts the power, pushes its state changes and the powers list; deactivate stops it', async () => {
  const before = peer.received(protocol.powerStateChanged).length;
  const info = await peer.request<protocol.PowerParams, PowerInfo>(protocol.activatePower, { name: 'memory' });
  assert.equal(info.active, true);
  assert.equal(info.state, 'active');
  assert.ok(info.tools.some((tool) => tool.name === 'search_nodes'));
  const states = peer
    .received<PowerStateChange>(protocol.powerStateChanged)
    .slice(before)
    .filter((c) => c.power === 'memory')
    .map((c) => c.state);
  assert.deepEqual(states.slice(0, 2), ['starting', 'active']);
  await waitFor(
    () => peer.last(protocol.powersChanged)?.powers.find((p) => p.name === 'memory')?.active === true,
    5000,
    'a powers notification with memory active',
  );
  await waitFor(
    () => peer.last(protocol.statusChanged)?.activePowers === 1,
    5000,
    'a status notification with one active power',
  );

  const stopped = await peer.request<protocol.PowerParams, PowerInfo>(protocol.deactivatePower, { name: 'memory' });
  assert.equal(stopped.active, false);
  assert.equal(stopped.state, 'stopped');
  await waitFor(
    () => peer.last(protocol.statusChanged)?.activePowers === 0,
    5000,
    'a status notification with no active power',
  );
});

test(
  "a power's entry counts the agents' sessions that list its tools: " +
    'one that deactivated it in its own session no longer counts',
  async () => {
    const client = await mcpClient();
    await client.listTools();
    const info = await peer.request<protocol.PowerParams, PowerInfo>(protocol.activatePower, { name: 'memory' });
    const withClient = info.agentSessions;
    assert.ok(withClient >= 1, `the new session lists memory's tools: ${withClient}`);
    assert.ok((await client.listTools()).tools.some((tool) => tool.name.startsWith('memory__')));
    await client.callTool({ name: 'deactivate_power', arguments: { name: 'memory' } });
    assert.ok(
      !(await client.listTools()).tools.some((tool) => tool.name.startsWith('memory__')),
      "the agent's own list no longer has them",
    );
    await waitFor(
      () =>
        peer.last(protocol.powersChanged)?.powers.find((p) => p.name === 'memory')?.agentSessions === withClient - 1,
      5000,
      'a powers notification counting one session fewer',
    );
    const listed = (await peer.request<null, PowersPayload>(protocol.listPowers, null)).powers.find(
      (p) => p.name === 'memory',
    )!;
    assert.deepEqual(
      [listed.active, listed.agentSessions],
      [true, withClient - 1],
      'still activated for the window, in one agent list fewer',
    );
    await client.close();
    await peer.request(protocol.deactivatePower, { name: 'memory' });
  },
);

test('a request the gateway refuses comes back as an error with the gateway code and a message', async () => {
  await assert.rejects(peer.request(protocol.activatePower, { name: 'nope' }), (error: Error & { code?: number }) => {
    assert.equal(error.code, protocol.GATEWAY_ERROR);
    assert.match(error.message, /nope/);
    return true;
  });
});

test('reload picks up a new spell file', async () => {
  writeSpell(
    path.join(home.dir, 'extra'),
    'weather',
    `name: weather\nversion: 1.0.0\ndescription: Forecasts.\nkeywords: ` +
      `[weather, forecast, rain]\nserver:\n  command: ${JSON.stringify(process.execPath)}\n`,
  );
  const payload = await peer.request<null, PowersPayload>(protocol.reloadPowers, null);
  assert.ok(payload.powers.some((power) => power.name === 'weather'));
});

test('a bad spell added while serving reaches the Powers tree as a problem with its file and line, and the other powers stay', async () => {
  const file = writeSpell(
    path.join(home.dir, 'extra'),
    'storm',
    `name: storm\nversion: 1.0.0\ndescription: ${'w'.repeat(3000)}\nkeywords: [storm, wind, rain]\nserver:\n  command: node\n`,
  );
  try {
    await waitFor(
      () => !!peer.last(protocol.powersChanged)?.issues.some((issue) => issue.file === file),
      8000,
      'a powers notification with the problem',
    );
    const issue = peer.last(protocol.powersChanged)!.issues.find((i) => i.file === file)!;
    assert.equal(issue.field, 'description');
    assert.equal(issue.line, 3);
    assert.match(issue.message, /description has 3,000 characters; the limit is 2000/);
    const names = peer.last(protocol.powersChanged)!.powers.map((power) => power.name);
    assert.ok(!names.includes('storm') && names.includes('weather') && names.includes('memory'), names.join(', '));
  } finally {
    fs.rmSync(file);
  }
});

async function mcpClient() {
  const endpoint = await peer.request<null, Endpoint>(protocol.getEndpoint, null);
  return (await connectHttp(endpoint.url, endpoint.token)).client;
}

const activity = (filter: ActivityFilterInfo) =>
  peer.request<ActivityFilterInfo, ActivityPage>(protocol.listActivity, filter);
const gatewayError = (pattern: RegExp) => (error: Error & { code?: number }) =>
  error.code === protocol.GATEWAY_ERROR && pattern.test(error.message);

test('resolve with explain gives every power its factor contributions ("why this power"), its flags and the resolver mode', async () => {
  const result = await peer.request<protocol.ResolveParams, ResolveResult>(protocol.resolveIntent, {
    query: 'remember facts in the knowledge graph',
    explain: true,
  });
  assert.equal(result.resolver?.mode, 'lexical-only', 'offline tests rank lexically and say so');
  for (const score of result.scores) {
    assert.ok(Array.isArray(score.flags));
    const e = score.explanation!;
    assert.ok(e, `${score.name} is explained`);
    const sum = Object.values(e.contributions).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - e.finalScore) < 0.01, `${score.name}: contributions ${sum} add up to ${e.finalScore}`);
    assert.ok(e.relativeRelevance >= 0 && e.relativeRelevance <= 1);
  }
  assert.equal(result.scores[0].explanation!.relativeRelevance, 1);
  const plain = await peer.request<protocol.ResolveParams, ResolveResult>(protocol.resolveIntent, {
    query: 'remember facts in the knowledge graph',
  });
  assert.ok(
    plain.scores.every((score) => score.explanation === undefined),
    'no explanation unless asked',
  );
});

test(
  'each call through MCP is pushed as activityRecorded at once; the activity request filters; ' +
    'a rating is stored and pushed',
  async () => {
    const client = await mcpClient();
    const before = peer.received(protocol.activityRecorded).length;
    const read = await client.callTool({
      name: 'call_tool_read',
      arguments: {
        name: 'memory:read_graph',
        args: {},
        intent: { operation_type: 'read', reason: 'look at the graph' },
      },
    });
    assert.ok(!read.isError, textOf(read));
    const refused = await client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'memory:create_entities', args: { entities: [] }, intent: { operation_type: 'read' } },
    });
    assert.equal(refused.isError, true);
    await waitFor(
      () => peer.received(protocol.activityRecorded).length >= before + 2,
      5000,
      'two activityRecorded notifications',
    );
    const [ok, rejected] = peer.received<ActivityInfo>(protocol.activityRecorded).slice(before);
    assert.deepEqual(
      [ok.tool, ok.status, ok.variant, ok.operationType, ok.reason, ok.rating, ok.audit],
      ['read_graph', 'ok', 'read', 'read', 'look at the graph', 0, false],
    );
    assert.deepEqual([rejected.tool, rejected.status, rejected.decision], ['create_entities', 'rejected', 'rejected']);
    assert.match(rejected.decisionReason ?? '', /call_tool_write/);

    const all = await activity({});
    assert.deepEqual(
      all.entries.slice(0, 2).map((e) => e.id),
      [rejected.id, ok.id],
      'newest first',
    );
    assert.deepEqual(all.entries[1], ok, 'the pushed entry and the listed row agree');
    assert.deepEqual(
      (await activity({ status: 'rejected' })).entries.map((e) => e.id),
      [rejected.id],
    );
    assert.deepEqual(
      (await activity({ intentType: 'read', power: 'memory', status: 'ok' })).entries.map((e) => e.id),
      [ok.id],
    );
    assert.deepEqual((await activity({ power: 'nobody' })).entries, []);
    assert.equal((await activity({ limit: 1 })).entries.length, 1);
    await assert.rejects(
      activity({ status: 'bogus' as never }),
      gatewayError(/status must be one of ok, error, rejected, suggested/),
    );

    const rated = await peer.request<protocol.RateActivityParams, ActivityRated>(protocol.rateActivity, {
      id: ok.id,
      rating: 1,
    });
    assert.deepEqual(rated, { id: ok.id, rating: 1 });
    await waitFor(
      () => peer.received<ActivityRated>(protocol.activityRated).some((r) => r.id === ok.id && r.rating === 1),
      5000,
      'an activityRated notification',
    );
    assert.equal((await activity({ status: 'ok' })).entries.find((e) => e.id === ok.id)?.rating, 1);
    await assert.rejects(
      peer.request(protocol.rateActivity, { id: ok.id, rating: 5 }),
      gatewayError(/rating must be 1/),
    );
    await assert.rejects(
      peer.request(protocol.rateActivity, { id: 'no-such-call', rating: 1 }),
      gatewayError(/No activity 'no-such-call'/),
    );
    await client.close();
  },
);

test("hints: the active powers' network, and a prerequisite suggestion and its follow-up pushed live with follow rates", async () => {
  await peer.request(protocol.activatePower, { name: 'memory' });
  const network = await peer.request<protocol.HintsParams, HintsPayload>(protocol.getHints, { scope: 'active' });
  assert.deepEqual(network.powers, ['memory']);
  const prerequisite = network.edges.find((e) => e.from === 'memory:search_nodes' && e.to === 'memory:create_entities');
  assert.deepEqual(prerequisite && [prerequisite.kind, prerequisite.source], ['prerequisite', 'declared']);
  assert.ok(
    network.edges.some(
      (e) => e.from === 'memory:create_entities' && e.to === 'memory:create_relations' && e.kind === 'next_action',
    ),
  );

  const client = await mcpClient();
  const pushes = peer.received(protocol.hintsChanged).length;
  const suggested = await client.callTool({
    name: 'memory__create_entities',
    arguments: {
      entities: [{ name: 'Ada Lovelace', entityType: 'person', observations: ['wrote the first program'] }],
    },
  });
  assert.equal(payload(suggested).status, 'PREREQUISITE_SUGGESTED');
  await waitFor(
    () =>
      peer
        .received<HintsPayload>(protocol.hintsChanged)
        .slice(pushes)
        .some((h) => h.recent[0]?.kind === 'prerequisite' && h.recent[0].outcome === null),
    5000,
    'a hintsChanged push with the suggestion',
  );
  const fired = peer.last<HintsPayload>(protocol.hintsChanged)!.recent[0];
  assert.deepEqual(
    [fired.power, fired.tool, fired.suggested, fired.source],
    ['memory', 'create_entities', ['memory:search_nodes'], 'declared'],
  );

  await client.callTool({ name: 'memory__search_nodes', arguments: { query: 'Ada' } });
  await waitFor(
    () =>
      peer
        .last<HintsPayload>(protocol.hintsChanged)
        ?.recent.some((h) => h.kind === 'prerequisite' && h.tool === 'create_entities' && h.outcome === 'followed') ===
      true,
    5000,
    'the suggestion pushed again as followed',
  );
  const rate = peer
    .last<HintsPayload>(protocol.hintsChanged)!
    .followRates.find((r) => r.tool === 'create_entities' && r.kind === 'prerequisite');
  assert.deepEqual(rate && [rate.shown, rate.followed, rate.rate], [1, 1, 1]);

  const after = await peer.request<protocol.HintsParams, HintsPayload>(protocol.getHints, {});
  assert.equal(after.nodes.find((n) => n.id === 'memory:search_nodes')?.calls, 1, 'nodes count the calls in the log');
  assert.equal(
    after.edges.find((e) => e.from === 'memory:search_nodes' && e.to === 'memory:create_entities')?.followRate,
    1,
  );
  const all = await peer.request<protocol.HintsParams, HintsPayload>(protocol.getHints, { scope: 'all', recent: 1 });
  assert.deepEqual(all.powers.sort(), ['everything', 'filesystem', 'memory', 'unstable', 'weather']);
  assert.equal(all.recent.length, 1);
  await assert.rejects(
    peer.request(protocol.getHints, { scope: 'everything' as never }),
    gatewayError(/scope must be 'active' or 'all'/),
  );
  await client.close();
});

test('recommendation quality: the agent following resolve_intent is counted and pushed; tuning waits for enough history', async () => {
  const client = await mcpClient();
  await client.callTool({ name: 'resolve_intent', arguments: { query: 'run the unstable echo test server' } });
  await client.callTool({ name: 'activate_power', arguments: { name: 'unstable' } });
  await waitFor(
    () => (peer.last<RecommendationStats>(protocol.recommendationStatsChanged)?.resolveIntent.followed ?? 0) >= 1,
    5000,
    'a recommendationStatsChanged push with a followed recommendation',
  );
  const stats = await peer.request<null, RecommendationStats>(protocol.getRecommendationStats, null);
  assert.ok(stats.resolveIntent.recommendations >= 1 && stats.resolveIntent.followed >= 1);
  assert.ok(stats.resolveIntent.mrr! > 0 && stats.resolveIntent.mrr! <= 1);
  assert.equal(stats.minSamples, 20);
  assert.equal(stats.learning, true);
  assert.ok(Math.abs(Object.values(stats.weights).reduce((a, b) => a + b, 0) - 1) < 1e-9, 'the weights sum to 1');
  assert.deepEqual(stats.defaultWeights, {
    relevance: 0.35,
    success: 0.25,
    popularity: 0.15,
    performance: 0.15,
    rating: 0.1,
  });
  const tuned = await peer.request<null, TuneWeightsResult>(protocol.tuneWeights, null);
  assert.equal(tuned.tuned, false);
  assert.match(tuned.reason ?? '', /needs 20 followed recommendations/);
  assert.deepEqual(tuned.weights, stats.weights, 'unchanged');
  await client.close();
});

test('the VS Code language model the client lends summarizes a large result; the token report counts it and is pushed', async () => {
  const prompts: string[] = [];
  peer.handlers.set(protocol.languageModelRequest.method, (params) => {
    prompts.push((params as protocol.LanguageModelParams).prompt);
    return {
      text: JSON.stringify({
        keyFindings: ['scripted finding one', 'scripted finding two', 'scripted finding three'],
        actionableInsights: [],
      }),
      model: 'test/scripted',
    };
  });
  peer.notify(protocol.languageModelAvailability.method, { available: true, models: ['test/scripted'] });
  const client = await mcpClient();
  const before = peer.received(protocol.tokenReportChanged).length;
  const big = await client.callTool({
    name: 'call_tool_read',
    arguments: {
      name: 'unstable:echo',
      args: { text: 'lorem ipsum dolor '.repeat(200) },
      intent: { operation_type: 'read' },
    },
  });
  assert.match(textOf(big), /scripted finding one/, 'the agent got the summary');
  assert.equal((big._meta?.['grimoire/summary'] as { summarizer?: string } | undefined)?.summarizer, 'vscodeLm');
  assert.equal(prompts.length, 1);
  assert.match(prompts[0], /unstable:echo/);
  await waitFor(
    () =>
      peer
        .received<TokenReportInfo>(protocol.tokenReportChanged)
        .slice(before)
        .some((r) => r.summarized.results >= 1),
    10_000,
    'a tokenReportChanged push',
  );

  peer.notify(protocol.languageModelAvailability.method, { available: false, models: [] });
  await waitFor(
    async () => {
      const local = await client.callTool({
        name: 'call_tool_read',
        arguments: {
          name: 'unstable:echo',
          args: { text: `sit amet ${Date.now()} `.repeat(200) },
          intent: { operation_type: 'read' },
        },
      });
      return (local._meta?.['grimoire/summary'] as { summarizer?: string } | undefined)?.summarizer === 'local';
    },
    5000,
    'the local summarizer once no model is lent',
  );
  assert.equal(prompts.length, 1, 'no prompt once the model is withdrawn');

  const report = await peer.request<null, TokenReportInfo>(protocol.getTokenReport, null);
  assert.equal(report.tokenizer, 'o200k_base');
  assert.ok(report.summarized.results >= 2 && report.summarized.savedTokens > 0, JSON.stringify(report.summarized));
  assert.ok(
    (report.bySummarizer.vscodeLm ?? 0) >= 1 && (report.bySummarizer.local ?? 0) >= 1,
    JSON.stringify(report.bySummarizer),
  );
  assert.equal(report.byPower[0].power, 'unstable');
  assert.equal(report.byDay.at(-1)!.day, new Date().toISOString().slice(0, 10));
  const listed = (await client.listTools()).tools.length;
  assert.equal(report.toolsList.gateway.tools, listed, "the gateway's tools/list as the agent sees it");
  assert.equal(
    report.toolsList.savedTokens,
    report.toolsList.configured.tokens - report.toolsList.gateway.tokens - report.toolsList.alsoDirect.tokens,
  );
  assert.deepEqual(
    report.toolsList.configured.powers,
    (await peer.request<null, PowersPayload>(protocol.listPowers, null)).powers.length,
    'direct exposure: the powers configured now',
  );
  // Per session: what this agent read (its tool lists, answers and the summaries) against direct exposure.
  const sessions = (await peer.request<null, TokenReportInfo>(protocol.getTokenReport, null)).sessions;
  const mine = sessions.rows.find((row) => row.gateway.results >= 2 && row.gateway.toolsLists >= 1);
  assert.ok(mine, JSON.stringify(sessions.rows));
  assert.equal(
    mine.gateway.tokens,
    mine.gateway.toolsListTokens +
      mine.gateway.alsoDirectTokens +
      mine.gateway.answerTokens +
      mine.gateway.resultTokens,
  );
  assert.ok(mine.gateway.resultTokens < mine.direct.resultTokens, 'the summaries are smaller than the raw results');
  assert.equal(mine.gateway.requests, mine.gateway.answers + mine.gateway.results, 'one model request per call');
  assert.equal(mine.direct.requests, mine.gateway.results, "directly, only the powers' own calls are requests");
  assert.equal(
    mine.direct.toolsListTokens,
    mine.direct.requests * report.toolsList.configured.tokens,
    "every direct request carries every configured power's tools",
  );
  assert.equal(mine.savedTokens, mine.direct.tokens - mine.gateway.tokens);
  await client.close();
  await peer.request(protocol.deactivatePower, { name: 'memory' });
  await peer.request(protocol.deactivatePower, { name: 'unstable' });
});

test('changed thresholds apply without a restart; an out-of-range value is refused with a warning', async () => {
  const query = 'show the contents of a directory';
  const before = await peer.request<protocol.ResolveParams, ResolveResult>(protocol.resolveIntent, { query });
  const top = before.scores[0].confidence;
  assert.ok(top > 0 && top < 1, `a query with a partial match to start from (got ${top})`);
  // Move the activate threshold across the top confidence, whichever side of it the default is on.
  const activateThreshold = before.tier === 'activated' ? (top + 1) / 2 : top / 2;
  const moved = {
    activateThreshold,
    multipleThreshold: Math.min(0.5, activateThreshold / 2),
    weakThreshold: Math.min(0.3, activateThreshold / 4),
  };
  peer.notify('workspace/didChangeConfiguration', {
    settings: settings({
      spellFolders: [path.join(home.dir, 'extra')],
      gateway: { ...settings().gateway, resolve: moved },
    }),
  });
  const flipped = (tier: string) => (tier === 'activated') !== (before.tier === 'activated');
  await waitFor(
    async () =>
      flipped((await peer.request<protocol.ResolveParams, ResolveResult>(protocol.resolveIntent, { query })).tier),
    5000,
    'the new thresholds',
  );
  const endpoint = await peer.request<null, Endpoint>(protocol.getEndpoint, null);
  assert.equal(endpoint.version, 1, 'same endpoint: no restart');

  const shown = peer.notifications.length;
  const invalid = settings({
    spellFolders: [path.join(home.dir, 'extra')],
    gateway: { ...settings().gateway, resolve: { activateThreshold: 5 } },
  });
  peer.notify('workspace/didChangeConfiguration', { settings: invalid });
  await waitFor(
    () =>
      peer.notifications
        .slice(shown)
        .some((n) => n.method.startsWith('window/showMessage') && /activateThreshold/.test(JSON.stringify(n.params))),
    5000,
    'a warning about the refused setting',
  );
  const after = await peer.request<protocol.ResolveParams, ResolveResult>(protocol.resolveIntent, { query });
  assert.equal(
    after.thresholds.activateThreshold,
    FITTED_ACTIVATE_THRESHOLD,
    'the refused value falls back to the default',
  );
  assert.equal(after.tier, before.tier);
});

test('a setting that changes the powers restarts the gateway at the same address and token, keeping active powers active', async () => {
  await peer.request(protocol.activatePower, { name: 'unstable' });
  await peer.request(protocol.activatePower, { name: 'memory' });
  await waitFor(
    () => peer.last(protocol.hintsChanged)?.powers.includes('memory') === true,
    10_000,
    "the demo memory's hints in the Hints view",
  );
  const before = await peer.request<null, Endpoint>(protocol.getEndpoint, null);
  const pushesBefore = {
    powers: peer.received(protocol.powersChanged).length,
    hints: peer.received(protocol.hintsChanged).length,
  };
  peer.notify('workspace/didChangeConfiguration', {
    settings: settings({ demoPowers: false, spellFolders: [path.join(home.dir, 'extra')] }),
  });
  await waitFor(
    () => peer.received(protocol.statusChanged).some((s) => s.health === 'restarting'),
    10_000,
    'a restarting status',
  );
  const after = await peer.request<null, Endpoint>(protocol.getEndpoint, null);
  assert.equal(after.version, before.version + 1);
  assert.equal(after.url, before.url, 'the same port');
  assert.equal(after.token, before.token, 'the same token: VS Code keeps its definition');
  const payload = await peer.request<null, PowersPayload>(protocol.listPowers, null);
  assert.deepEqual(payload.powers.map((p) => p.name).sort(), ['unstable', 'weather']);
  await waitFor(
    async () =>
      (await peer.request<null, PowersPayload>(protocol.listPowers, null)).powers.find((p) => p.name === 'unstable')
        ?.active === true,
    10_000,
    'unstable active again',
  );
  // From the first list the restarted gateway pushes, unstable reads active: never "stopped" meanwhile.
  const restartedPushes = peer
    .received(protocol.powersChanged)
    .slice(pushesBefore.powers)
    .filter((p) => !p.powers.some((power) => power.name === 'memory'));
  assert.ok(restartedPushes.length > 0);
  for (const push of restartedPushes)
    assert.equal(
      push.powers.find((p) => p.name === 'unstable')?.active,
      true,
      JSON.stringify(push.powers.map((p) => [p.name, p.active, p.state])),
    );
  // The Hints view stops crediting the demo's memory as soon as the restart begins.
  const hintPushes = peer.received(protocol.hintsChanged).slice(pushesBefore.hints);
  assert.ok(hintPushes.length >= 2, `${hintPushes.length} hint pushes`);
  for (const hints of hintPushes) assert.ok(!hints.powers.includes('memory'), JSON.stringify(hints.powers));
  assert.deepEqual(hintPushes.at(-1)!.powers, ['unstable']);
});

test('shutdown and exit end the process and every power it started', async () => {
  const pids = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const children = pids.filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(peer.child.pid);
    } catch {
      return false;
    }
  });
  assert.ok(children.length > 0, 'the active power runs as a child of the gateway');
  await peer.request({ method: 'shutdown' }, null);
  peer.notify('exit', null);
  await waitFor(() => peer.child.exitCode !== null, 10_000, 'the gateway process to exit');
  await waitFor(() => children.every((pid) => !isAlive(pid)), 10_000, 'the power processes to end');
});
