/**
 * The dashboard's activity table, recommendation quality, hint network graph (dagre layout drawn as
 * SVG) and token chart, in headless Chromium with the real bundle and CSP (dashboard-page.ts).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { GatewayStatus, PowerInfo } from '../../../protocol/records.js';
import { dashboardHarness, posted, screenshotPath, send, violations, type DashboardHarness } from './dashboard-page.js';
import { call, calls, hints, stats, tokens } from './insight-fixtures.js';

let harness: DashboardHarness;

const status: GatewayStatus = {
  health: 'ready',
  url: 'http://127.0.0.1:5555/mcp',
  endpointVersion: 1,
  powers: 2,
  activePowers: 2,
  crashedPowers: 0,
  issues: 0,
};
const power = (name: string): PowerInfo => ({
  name,
  version: '1.0.0',
  description: name,
  keywords: [],
  source: { kind: 'demo', file: `/x/${name}.spell.yaml`, readOnly: true },
  serverId: `server-of-${name}`,
  state: 'active',
  active: true,
  agentSessions: 1,
  tools: [],
  problems: [],
});

async function open(): Promise<Page> {
  const page = await harness.open(undefined, { width: 1200, height: 900 });
  await send(page, { type: 'gateway', status, powers: [power('memory'), power('filesystem')] });
  return page;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

before(async () => {
  harness = await dashboardHarness('insights');
});

after(async () => {
  await harness?.close();
});

test('the activity table lists calls with intent, status, decision, latency and rating; audit-flagged calls are marked', async () => {
  const page = await open();
  await send(page, { type: 'activity', page: { filter: {}, entries: calls } });
  await page.locator('[data-activity="c1"]').waitFor();
  assert.deepEqual(
    await page.locator('[data-activity]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-activity'))),
    ['c3', 'c2', 'c1'],
  );
  const c3 = (await page.locator('[data-activity="c3"]').textContent()) ?? '';
  assert.match(c3, /delete_entities\s*audit.*memory.*destructive.*error.*allowed.*1\.5 s/s);
  assert.equal(await page.locator('[data-activity="c3"]').getAttribute('class'), 'audit');
  assert.match(
    (await page.locator('[data-activity="c2"]').textContent()) ?? '',
    /create_entities.*direct.*prerequisite suggested/s,
  );
  assert.equal(await page.locator('[data-activity="c1"] [data-rate="up"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('[data-activity="c1"] [data-rate="down"]').getAttribute('aria-pressed'), 'false');
  assert.deepEqual(await violations(page), []);
  await page.close();
});

test('thumbs rate a call (the same thumb again takes it back) and a rating pushed back shows', async () => {
  const page = await open();
  await send(page, { type: 'activity', page: { filter: {}, entries: calls } });
  await page.locator('[data-activity="c3"] [data-rate="down"]').click();
  assert.deepEqual((await posted(page)).at(-1), { type: 'rate', id: 'c3', rating: -1 });
  await page.locator('[data-activity="c1"] [data-rate="up"]').click();
  assert.deepEqual(
    (await posted(page)).at(-1),
    { type: 'rate', id: 'c1', rating: 0 },
    'clicking a pressed thumb clears the rating',
  );
  await send(page, { type: 'activityRated', rated: { id: 'c3', rating: -1 } });
  await page.locator('[data-activity="c3"] [data-rate="down"][aria-pressed="true"]').waitFor();
  await page.close();
});

test('filters go to the extension; calls pushed live join the table only when the filter admits them', async () => {
  const page = await open();
  await send(page, { type: 'activity', page: { filter: {}, entries: calls } });
  await page.locator('[data-testid="filter-status"]').selectOption('error');
  assert.deepEqual((await posted(page)).at(-1), { type: 'activityFilter', filter: { status: 'error' } });
  await send(page, { type: 'activity', page: { filter: { status: 'error' }, entries: [calls[0]] } });
  await page.locator('[data-testid="filter-power"]').selectOption('memory');
  assert.deepEqual((await posted(page)).at(-1), {
    type: 'activityFilter',
    filter: { status: 'error', power: 'memory' },
  });
  await send(page, { type: 'activity', page: { filter: { status: 'error', power: 'memory' }, entries: [calls[0]] } });
  await send(page, { type: 'activityRecorded', entry: call('ok-call', { at: Date.now() }) });
  await send(page, { type: 'activityRecorded', entry: call('new-error', { at: Date.now(), status: 'error' }) });
  await page.locator('[data-activity="new-error"]').waitFor();
  assert.deepEqual(
    await page.locator('[data-activity]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-activity'))),
    ['new-error', 'c3'],
  );
  assert.equal(
    await page.locator('[data-testid="filter-status"]').inputValue(),
    'error',
    'the filter survives the re-render',
  );
  await page.locator('[data-testid="filter-status"]').selectOption('');
  assert.deepEqual((await posted(page)).at(-1), { type: 'activityFilter', filter: { power: 'memory' } });
  await send(page, { type: 'activity', page: { filter: { power: 'memory' }, entries: [] } });
  assert.equal(await page.locator('[data-testid="activity-empty"]').textContent(), 'No calls match power: memory.');
  await page.close();
});

test(
  'recommendation quality shows MRR and precision@k per source and the weights; ' +
    'Tune asks the extension and shows the outcome',
  async () => {
    const page = await open();
    await send(page, { type: 'recommendations', stats });
    await page.locator('[data-metrics="all"]').waitFor();
    assert.match((await page.locator('[data-metrics="all"]').textContent()) ?? '', /All\s*0\.833\s*78%\s*100%\s*9/);
    assert.match(
      (await page.locator('[data-metrics="retrieveTools"]').textContent()) ?? '',
      /retrieve_tools\s*0\.667\s*67%/,
    );
    assert.match(
      (await page.locator('[data-weight="relevance"]').textContent()) ?? '',
      /relevance\s*40%\s*default 35%/,
    );
    assert.match((await page.locator('[data-weight="success"]').textContent()) ?? '', /25%\s*default$/);
    assert.match(
      (await page.locator('[data-testid="quality-section"]').textContent()) ?? '',
      /Tuning needs 20 followed recommendations; 9 so far/,
    );
    assert.equal(
      await page.locator('[data-testid="tune"]').getAttribute('disabled'),
      '',
      'Tune is disabled with 9 of 20 samples',
    );
    const enough = { ...stats, all: { ...stats.all, followed: 25 } };
    await send(page, { type: 'recommendations', stats: enough });
    await page.locator('[data-testid="tune"]:not([disabled])').click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'tune' });
    await send(page, {
      type: 'tuned',
      result: {
        tuned: false,
        samples: 25,
        mrrBefore: 0.8,
        mrrAfter: 0.8,
        weights: stats.weights,
        reason: 'no weights improve MRR',
        stats: enough,
      },
    });
    assert.equal(
      await page.locator('[data-testid="tune-result"]').textContent(),
      'Weights unchanged: no weights improve MRR.',
    );
    await page.close();
  },
);

test(
  'the hint network is drawn as a graph: a box per power, a node per tool with a hint, ' +
    'an arrow per hint, none overlapping',
  async () => {
    const page = await open();
    await send(page, { type: 'hints', payload: hints });
    const graph = page.locator('[data-testid="hint-graph"]');
    await graph.waitFor();
    const linked = new Set(hints.edges.flatMap((edge) => [edge.from, edge.to]));
    const nodeIds = await graph
      .locator('[data-node]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node')));
    assert.deepEqual(nodeIds.sort(), [...linked].sort());
    assert.equal(await graph.locator('[data-edge]').count(), hints.edges.length);
    assert.deepEqual(
      (await graph.locator('[data-cluster]').evaluateAll((c) => c.map((n) => n.getAttribute('data-cluster')))).sort(),
      ['filesystem', 'memory'],
    );
    const paths = await graph
      .locator('[data-edge] path')
      .evaluateAll((edges) => edges.map((edge) => edge.getAttribute('d') ?? ''));
    for (const d of paths) assert.match(d, /^M[\d.]+,[\d.]+( [LC]?[\d.]+,[\d.]+)+$/, d);
    assert.equal(
      await graph.locator('[data-edge="filesystem:read_text_file>memory:create_entities"]').getAttribute('data-source'),
      'learned',
    );
    assert.equal(
      await graph.locator('[data-edge="memory:search_nodes>memory:create_entities"] .edge-label').textContent(),
      '4× · 75%',
    );
    const widths = await graph
      .locator('[data-edge] path')
      .evaluateAll((edges) => edges.map((edge) => Number(edge.getAttribute('stroke-width'))));
    assert.ok(Math.max(...widths) > Math.min(...widths), 'edges are weighted by use');
    // The browser's own boxes: no two tool nodes overlap, and each sits inside its power's box.
    const boxes = await graph.locator('[data-node]').evaluateAll((nodes) =>
      nodes.map((node) => {
        const r = node.getBoundingClientRect();
        return { id: node.getAttribute('data-node')!, x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    );
    const clusters = await graph.locator('[data-cluster] rect').evaluateAll((rects) =>
      rects.map((rect) => {
        const r = rect.getBoundingClientRect();
        return {
          power: rect.parentElement!.getAttribute('data-cluster')!,
          x: r.x,
          y: r.y,
          width: r.width,
          height: r.height,
        };
      }),
    );
    for (const [i, a] of boxes.entries()) {
      assert.ok(a.width > 40 && a.height > 20, `${a.id} is drawn`);
      for (const b of boxes.slice(i + 1)) assert.ok(!overlaps(a, b), `${a.id} and ${b.id} overlap`);
      const cluster = clusters.find((c) => a.id.startsWith(`${c.power}:`))!;
      assert.ok(
        a.x >= cluster.x &&
          a.y >= cluster.y &&
          a.x + a.width <= cluster.x + cluster.width &&
          a.y + a.height <= cluster.y + cluster.height,
        `${a.id} inside ${cluster.power}`,
      );
    }
    assert.ok(!overlaps(clusters[0], clusters[1]), 'the power boxes do not overlap');
    assert.match(
      (await page.locator('[data-testid="hints-summary"]').textContent()) ?? '',
      /memory, filesystem: 10 tools linked by 7 hints \(1 learned\); 2 tools without hints/,
    );
    const recent = await page
      .locator('[data-hint-event]')
      .evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
    assert.equal(recent.length, 2);
    assert.match(recent[0], /create_entities memory\s*run search_nodes first\s*declared\s*followed/);
    assert.match(recent[1], /next: create_relations, add_observations\s*declared\s*pending/);
    await page.locator('[data-testid="hints-section"]').screenshot({ path: screenshotPath('dashboard-graph.png') });
    await page.locator('[data-testid="scope-all"]').click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'hintsScope', scope: 'all' });
    assert.deepEqual(await violations(page), []);
    await page.close();
  },
);

test('with no hints among the powers the graph says why instead of drawing nothing', async () => {
  const page = await open();
  await send(page, { type: 'hints', payload: { ...hints, edges: [], recent: [] } });
  await page.locator('[data-testid="graph-empty"]').waitFor();
  assert.equal(await page.locator('[data-testid="hint-graph"]').count(), 0);
  await page.close();
});

test('the token chart draws a bar per day with savings and the running total; per power and tools/list savings are listed', async () => {
  const page = await open();
  await send(page, { type: 'tokens', report: tokens });
  const chart = page.locator('[data-testid="token-chart"]');
  await chart.waitFor();
  const days = await chart
    .locator('.saved-bar')
    .evaluateAll((bars) =>
      bars.map((bar) => ({ day: bar.getAttribute('data-day'), height: Number(bar.getAttribute('height')) })),
    );
  assert.deepEqual(
    days.map((d) => d.day),
    tokens.byDay.map((d) => d.day),
  );
  const byDay = new Map(tokens.byDay.map((d) => [d.day, d.savedTokens]));
  const sorted = [...days].sort((a, b) => byDay.get(a.day!)! - byDay.get(b.day!)!);
  assert.deepEqual(
    sorted.map((d) => d.height),
    [...sorted.map((d) => d.height)].sort((a, b) => a - b),
    'taller bars for more tokens saved',
  );
  const line = (await chart.locator('[data-testid="total-line"]').getAttribute('d')) ?? '';
  assert.equal(line.split(/[ML]/).filter(Boolean).length, 14, 'the running total over two weeks');
  const ys = line
    .split(/[ML]/)
    .filter(Boolean)
    .map((p) => Number(p.split(',')[1]));
  for (let i = 1; i < ys.length; i += 1) assert.ok(ys[i] <= ys[i - 1], 'the running total never goes down');
  assert.match((await chart.textContent()) ?? '', /161k/, 'the right axis reaches the total saved');
  assert.match(
    (await page.locator('[data-testid="token-figures"]').textContent()) ?? '',
    /161k\s*tokens saved by summaries\s*89%\s*reduction over 17 summarized results\s*31%/,
  );
  assert.deepEqual(
    await page
      .locator('[data-token-power]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-token-power'))),
    ['filesystem', 'everything'],
  );
  assert.match(
    (await page.locator('[data-testid="tools-list-savings"]').textContent()) ?? '',
    new RegExp(
      /36 tools, 3 powers.*9\.8k.*11 tools\) plus the 9 tools VS Code lists directly besides /.source +
        /it.*4\.4k.*Each model request carries 5\.4k tokens \(55%\) fewer through Grimoire \(its 11 /.source +
        /tools plus the 9 tools \(2\.1k tokens\) VS Code lists directly besides it\)/.source,
      's',
    ),
  );
  assert.match(
    (await page.locator('[data-testid="listed-twice"][data-power="notes"]').textContent()) ?? '',
    new RegExp(
      /^VS Code also offers "notes" to its agent directly \(from \/w\/\.vscode\/mcp\.json\): its 9 /.source +
        /tools \(2\.1k tokens\) are on every request besides Grimoire's list\. "Grimoire: Route Through /.source +
        /Grimoire Alone"/.source,
    ),
  );
  // Per session: what the agent read through Grimoire against direct exposure, the smaller bar drawn shorter.
  const reads = page.locator('[data-testid="session-reads"]');
  const widths = await reads
    .locator('.fill')
    .evaluateAll((fills) => fills.map((f) => ({ cls: f.className, width: f.getBoundingClientRect().width })));
  assert.equal(widths.length, 2, JSON.stringify(widths));
  assert.match(widths[0]!.cls, /saved/, 'Grimoire read less: its bar is the green one');
  assert.ok(widths[0]!.width < widths[1]!.width / 2, `24.6k drawn shorter than 53.4k: ${JSON.stringify(widths)}`);
  assert.match(
    (await reads.textContent()) ?? '',
    new RegExp(
      /29k tokens \(54%\) fewer than with the configured powers listed directly, counting the 11k /.source +
        /tokens of the tools VS Code listed directly besides Grimoire's on the same requests/.source,
    ),
  );
  assert.match(
    (await page.locator('[data-testid="request-model"]').textContent()) ?? '',
    /^Counted per model request: each tool call is one request/,
  );
  await page.locator('[data-testid="tokens-section"]').screenshot({ path: screenshotPath('token-chart.png') });
  assert.deepEqual(await violations(page), []);
  await page.close();
});

test('the whole dashboard with every part filled keeps its order and breaks no CSP rule', async () => {
  const page = await open();
  await send(page, { type: 'activity', page: { filter: {}, entries: calls } });
  await send(page, { type: 'hints', payload: hints });
  await send(page, { type: 'tokens', report: tokens });
  await send(page, { type: 'recommendations', stats });
  await page.locator('[data-testid="token-chart"]').waitFor();
  const order = await page
    .locator('main > * section, main > section')
    .evaluateAll((sections) => sections.map((s) => s.getAttribute('data-testid')));
  assert.deepEqual(order, [
    'powers-section',
    'playground',
    'activity-section',
    'hints-section',
    'tokens-section',
    'quality-section',
  ]);
  await page.screenshot({ path: screenshotPath('dashboard-full.png'), fullPage: true });
  assert.deepEqual(await violations(page), []);
  await page.close();
});
