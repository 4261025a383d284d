/**
 * The dashboard page itself in headless Chromium (dashboard-page.ts): the gateway, the playground and
 * its "why this power", state restore. Covers what is awkward to reach through VS Code: CSP violations,
 * escaping, errors, typing while updates arrive.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { GatewayStatus, PowerInfo, ResolveResult } from '../../../protocol/records.js';
import type { DashboardState } from '../../../protocol/dashboard-messages.js';
import { dashboardHarness, posted, screenshotPath, send, violations, type DashboardHarness } from './dashboard-page.js';

let harness: DashboardHarness;

function powerInfo(name: string, overrides: Partial<PowerInfo> = {}): PowerInfo {
  return {
    name,
    version: '1.0.0',
    description: `What ${name} does.`,
    keywords: [],
    source: { kind: 'demo', file: `/x/${name}.spell.yaml`, readOnly: true },
    serverId: `server-of-${name}`,
    state: 'stopped',
    active: false,
    agentSessions: 0,
    tools: [{ name: 'a', description: '', annotations: {} }],
    problems: [],
    ...overrides,
  };
}

const status: GatewayStatus = {
  health: 'ready',
  url: 'http://127.0.0.1:5555/mcp',
  endpointVersion: 1,
  powers: 3,
  activePowers: 1,
  crashedPowers: 0,
  issues: 0,
};
const powers = [
  powerInfo('filesystem', { state: 'active', active: true, agentSessions: 1 }),
  powerInfo('memory'),
  powerInfo('everything', { description: '<img src=x onerror="window.__pwned=1">' }),
];
const result: ResolveResult = {
  query: 'remember facts',
  tier: 'multiple_matches',
  candidates: ['memory', 'everything'],
  scores: [
    {
      name: 'memory',
      confidence: 0.71,
      score: 3,
      matchType: 'keyword',
      matchedTerms: ['remember', 'fact'],
      matchedWords: ['remember', 'facts'],
      band: 'multiple_matches',
      flags: [],
      explanation: {
        lexicalScore: 3,
        strength: 0.8,
        coverage: 0.67,
        relativeRelevance: 1,
        factors: { success: 0.9, popularity: 0.4, performance: 0.8, rating: 0.75, calls: 12 },
        contributions: { relevance: 0.35, success: 0.225, popularity: 0.06, performance: 0.12, rating: 0.075 },
        finalScore: 0.83,
        movedByHistory: true,
      },
    },
    {
      name: 'everything',
      confidence: 0.52,
      score: 2,
      matchType: 'description',
      matchedTerms: ['fact'],
      matchedWords: ['facts'],
      band: 'multiple_matches',
      flags: ["command 'npx' was not found on PATH: install it"],
    },
    {
      name: 'filesystem',
      confidence: 0,
      score: 0,
      matchType: 'name',
      matchedTerms: [],
      matchedWords: [],
      band: 'not_found',
      flags: [],
    },
  ],
  thresholds: { activateThreshold: 0.85, multipleThreshold: 0.5, weakThreshold: 0.3 },
  elapsedMs: 0.3,
};

const openDashboard = (initialState?: DashboardState): Promise<Page> => harness.open(initialState);

before(async () => {
  harness = await dashboardHarness('basics');
});

after(async () => {
  await harness?.close();
});

test('the page asks for its state, renders the gateway and breaks no CSP rule', async () => {
  const page = await openDashboard();
  assert.deepEqual((await posted(page))[0], { type: 'ready' });
  await send(page, { type: 'gateway', status, powers });
  await page.locator('[data-power="memory"]').waitFor();
  assert.equal(await page.locator('[data-testid="health"]').textContent(), 'Ready');
  assert.match((await page.locator('[data-power="filesystem"]').textContent()) ?? '', /active.*1.*demo.*Deactivate/s);
  assert.deepEqual(await violations(page), []);
  assert.equal(
    await page
      .locator('vscode-button')
      .first()
      .evaluate((button) => button.shadowRoot !== null),
    true,
    'the vscode-elements components are defined',
  );
  await page.close();
});

test('gateway text is shown as text, never as markup', async () => {
  const page = await openDashboard();
  await send(page, { type: 'gateway', status, powers });
  await page.locator('[data-power="everything"]').waitFor();
  assert.match((await page.locator('[data-power="everything"]').textContent()) ?? '', /<img src=x onerror=/);
  assert.equal(await page.locator('[data-power="everything"] img').count(), 0);
  assert.equal(await page.evaluate('window.__pwned ?? null'), null);
  await page.close();
});

test('the playground sends the query, shows every score with its tier, and activates a power', async () => {
  const page = await openDashboard();
  await send(page, { type: 'gateway', status, powers });
  await page.locator('[data-testid="query"] input').fill('remember facts');
  await page.locator('[data-testid="query"] input').press('Enter');
  assert.deepEqual((await posted(page)).at(-1), { type: 'resolve', query: 'remember facts' });
  await send(page, { type: 'resolved', result });
  await page.locator('[data-testid="tier"]').waitFor();
  assert.match(
    (await page.locator('[data-testid="tier"]').textContent()) ?? '',
    /Multiple matches.*"remember facts".*activate ≥ 0\.85/s,
  );
  assert.deepEqual(
    await page.locator('[data-score]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-score'))),
    ['memory', 'everything', 'filesystem'],
  );
  assert.match(
    (await page.locator('[data-score="memory"]').textContent()) ?? '',
    /0\.71.*Close match.*keyword: remember, facts/s,
  );
  assert.equal(
    await page.locator('[data-score="filesystem"] vscode-button').count(),
    0,
    'an active power shows no Activate button',
  );
  await page.locator('[data-score="memory"] vscode-button').click();
  assert.deepEqual((await posted(page)).at(-1), { type: 'activate', name: 'memory' });
  assert.deepEqual(await page.evaluate('window.__state'), { query: 'remember facts', result });
  await page.screenshot({ path: screenshotPath('dashboard.png'), fullPage: true });
  await page.close();
});

test("'why this power' shows each factor's contribution, what matched and what history did; flags are shown", async () => {
  const page = await openDashboard();
  await send(page, { type: 'gateway', status, powers });
  await send(page, { type: 'resolved', result });
  const why = page.locator('[data-why="memory"]');
  await why.locator('summary').click();
  assert.equal(await why.evaluate((node) => node.hasAttribute('open')), true);
  assert.equal(
    (await why.locator('summary').textContent()) ?? '',
    '#1 moved by history',
    'the summary agrees with the ordering',
  );
  assert.match(
    (await why.textContent()) ?? '',
    /Powers that match about as well are ordered by how their past calls went; its history moved it here\./,
  );
  assert.doesNotMatch(
    (await why.textContent()) ?? '',
    /Weighted score|strength \d|coverage \d|fact\b(?!s)/,
    "plain words, the user's words, no bare figures",
  );
  const widths = await why.locator('.segment').evaluateAll((segments) => segments.map((s) => s.getAttribute('style')));
  assert.deepEqual(widths, ['width: 42.2%;', 'width: 27.1%;', 'width: 7.2%;', 'width: 14.5%;', 'width: 9%;']);
  const text = (await why.textContent()) ?? '';
  assert.match(text, /relevance 42%.*success rate 27%/s);
  assert.match(
    text,
    new RegExp(
      /Your words "remember", "facts" match its keywords\. It is a strong match \(80% of the best /.source +
        /this request could reach\)\. It matches 67% of what the telling words of your request weigh\. /.source +
        /Compared by words only/.source,
    ),
  );
  assert.match(text, /12 calls · success 90%.*moved by history/);
  assert.equal(await page.locator('[data-why="filesystem"]').count(), 0, 'no explanation, no why');
  assert.match((await page.locator('[data-flag="everything"]').textContent()) ?? '', /npx' was not found on PATH/);
  await page.locator('[data-testid="playground"]').screenshot({ path: screenshotPath('dashboard-why.png') });
  assert.deepEqual(await violations(page), []);
  await page.close();
});

test('an update from the gateway does not disturb what is being typed; a failure is shown', async () => {
  const page = await openDashboard();
  await page.locator('[data-testid="query"] input').fill('half a quer');
  await send(page, { type: 'gateway', status: { ...status, activePowers: 2 }, powers });
  await send(page, { type: 'failed', action: 'activate', message: "Power 'memory' failed to start" });
  assert.equal(await page.locator('[data-testid="query"] input').inputValue(), 'half a quer');
  assert.equal(await page.locator('[role="alert"]').textContent(), "activate failed: Power 'memory' failed to start");
  await page.close();
});

test('once its state is restored, the page asks for its activity with its filter and the hints of its scope', async () => {
  const page = await openDashboard({ query: '', activityFilter: { status: 'error' }, hintsScope: 'all' });
  await send(page, { type: 'restore', state: { query: 'older' } });
  await page.waitForFunction('window.__posted.length >= 3');
  assert.deepEqual((await posted(page)).slice(1), [
    { type: 'activityFilter', filter: { status: 'error' } },
    { type: 'hintsScope', scope: 'all' },
  ]);
  await page.close();
});

test('state comes back: from the webview state first, else from what the extension kept', async () => {
  const kept = await openDashboard({ query: 'remember facts', result });
  await send(kept, { type: 'restore', state: { query: 'older query' } });
  await kept.locator('[data-testid="tier"]').waitFor();
  assert.equal(await kept.locator('[data-testid="query"] input').inputValue(), 'remember facts');
  await kept.close();

  const fresh = await openDashboard();
  await send(fresh, { type: 'restore', state: { query: 'remember facts', result } });
  await fresh.locator('[data-testid="tier"]').waitFor();
  assert.equal(await fresh.locator('[data-testid="query"] input').inputValue(), 'remember facts');
  await fresh.close();
});
