/**
 * The dashboard page itself in headless Chromium (Debian's, installed by harness/setup.js): the real
 * bundle and the page the extension serves (same CSP), with a stand-in for the webview API that
 * records what the page posts. Covers what is awkward to reach through VS Code: CSP violations,
 * escaping, errors, state restore, typing while updates arrive.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { dashboardHtml } from '../../../client/dashboard-html.js';
import { buildWebview } from '../../../client/packaging/bundle.js';
import type { DashboardRequest, DashboardState, DashboardUpdate, GatewayStatus, PowerInfo, ResolveResult } from '../../../server/rpc/protocol.js';
import { base, paths } from '../harness/paths.js';

const assets = path.join(base, 'browser-test');
let server: http.Server;
let origin = '';
let browser: Browser;

/** Stand-in for acquireVsCodeApi, plus a CSP violation log; runs before the page's own script. */
function fakeVsCodeApi(initialState: DashboardState | undefined): string {
  return `
    window.__posted = []; window.__state = ${JSON.stringify(initialState ?? null)}; window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
    window.acquireVsCodeApi = () => ({
      postMessage: (message) => window.__posted.push(message),
      getState: () => window.__state ?? undefined,
      setState: (state) => { window.__state = state; },
    });
    const theme = { '--vscode-foreground': '#cccccc', '--vscode-editor-background': '#1f1f1f', '--vscode-descriptionForeground': '#9d9d9d',
      '--vscode-font-family': 'sans-serif', '--vscode-font-size': '13px', '--vscode-button-background': '#0078d4', '--vscode-button-foreground': '#ffffff',
      '--vscode-input-background': '#313131', '--vscode-input-foreground': '#cccccc', '--vscode-panel-border': '#2b2b2b', '--vscode-focusBorder': '#0078d4',
      '--vscode-testing-iconPassed': '#73c991', '--vscode-charts-blue': '#3794ff', '--vscode-charts-yellow': '#cca700', '--vscode-errorForeground': '#f85149',
      '--vscode-badge-background': '#616161', '--vscode-badge-foreground': '#f8f8f8', '--vscode-list-hoverBackground': '#2a2d2e' };
    document.addEventListener('DOMContentLoaded', () => { for (const [k, v] of Object.entries(theme)) document.documentElement.style.setProperty(k, v); });
  `;
}

function powerInfo(name: string, overrides: Partial<PowerInfo> = {}): PowerInfo {
  return {
    name,
    version: '1.0.0',
    description: `What ${name} does.`,
    keywords: [],
    source: { kind: 'demo', file: `/x/${name}.spell.yaml`, readOnly: true },
    state: 'stopped',
    active: false,
    tools: [{ name: 'a', description: '', annotations: {} }],
    problems: [],
    ...overrides,
  };
}

const status: GatewayStatus = { health: 'ready', url: 'http://127.0.0.1:5555/mcp', endpointVersion: 1, powers: 3, activePowers: 1, crashedPowers: 0, issues: 0 };
const powers = [powerInfo('filesystem', { state: 'active', active: true }), powerInfo('memory'), powerInfo('everything', { description: '<img src=x onerror="window.__pwned=1">' })];
const result: ResolveResult = {
  query: 'remember facts',
  tier: 'multiple_matches',
  candidates: ['memory', 'everything'],
  scores: [
    { name: 'memory', confidence: 0.71, score: 3, matchType: 'keyword', matchedTerms: ['remember', 'fact'], band: 'multiple_matches' },
    { name: 'everything', confidence: 0.52, score: 2, matchType: 'description', matchedTerms: ['fact'], band: 'multiple_matches' },
    { name: 'filesystem', confidence: 0, score: 0, matchType: 'name', matchedTerms: [], band: 'not_found' },
  ],
  thresholds: { activateThreshold: 0.85, multipleThreshold: 0.5, weakThreshold: 0.3 },
  elapsedMs: 0.3,
};

async function openDashboard(initialState?: DashboardState): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  await page.addInitScript(fakeVsCodeApi(initialState));
  await page.goto(`${origin}/index.html`);
  await page.locator('[data-testid="query"]').waitFor();
  return page;
}

const posted = (page: Page) => page.evaluate<DashboardRequest[]>('window.__posted');
const send = (page: Page, update: DashboardUpdate) => page.evaluate(`window.postMessage(${JSON.stringify(update)}, '*')`);

before(async () => {
  await buildWebview(assets);
  const html = dashboardHtml({ cspSource: 'http://127.0.0.1:*', scriptUri: '/dashboard.js', styleUri: '/dashboard.css' });
  server = http.createServer((request, response) => {
    const name = (request.url ?? '/').split('?')[0];
    if (name === '/index.html') return void response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    const file = path.join(assets, path.basename(name));
    if (!fs.existsSync(file)) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': name.endsWith('.css') ? 'text/css' : 'text/javascript' }).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: paths.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('the page asks for its state, renders the gateway and breaks no CSP rule', async () => {
  const page = await openDashboard();
  assert.deepEqual((await posted(page))[0], { type: 'ready' });
  await send(page, { type: 'gateway', status, powers });
  await page.locator('[data-power="memory"]').waitFor();
  assert.equal(await page.locator('[data-testid="health"]').textContent(), 'Ready');
  assert.match((await page.locator('[data-power="filesystem"]').textContent()) ?? '', /active.*1.*demo.*Deactivate/s);
  assert.deepEqual(await page.evaluate('window.__violations'), []);
  assert.equal(await page.locator('vscode-button').first().evaluate((button) => button.shadowRoot !== null), true, 'the vscode-elements components are defined');
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
  assert.match((await page.locator('[data-testid="tier"]').textContent()) ?? '', /Multiple matches.*"remember facts".*activate ≥ 0\.85/s);
  assert.deepEqual(await page.locator('[data-score]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-score'))), ['memory', 'everything', 'filesystem']);
  assert.match((await page.locator('[data-score="memory"]').textContent()) ?? '', /0\.71.*Multiple matches.*keyword: remember, fact/s);
  assert.equal(await page.locator('[data-score="filesystem"] vscode-button').count(), 0, 'an active power shows no Activate button');
  await page.locator('[data-score="memory"] vscode-button').click();
  assert.deepEqual((await posted(page)).at(-1), { type: 'activate', name: 'memory' });
  assert.deepEqual(await page.evaluate('window.__state'), { query: 'remember facts', result });
  fs.mkdirSync(paths.browserOutput, { recursive: true });
  await page.screenshot({ path: path.join(paths.browserOutput, 'dashboard.png'), fullPage: true });
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
