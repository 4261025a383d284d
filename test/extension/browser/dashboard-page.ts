/**
 * The dashboard page in headless Chromium (Debian's, installed by harness/setup.js): the real bundle
 * and the page the extension serves (same CSP), with a stand-in for the webview API that records
 * what the page posts, and a dark theme's --vscode-* colours.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { dashboardHtml } from '../../../client/dashboard-html.js';
import { buildWebview } from '../../../tools/packaging/bundle.js';
import type { DashboardRequest, DashboardState, DashboardUpdate } from '../../../protocol/dashboard-messages.js';
import { base, paths } from '../harness/paths.js';

/** Stand-in for acquireVsCodeApi, plus a CSP violation log; runs before the page's own script. */
function fakeVsCodeApi(initialState: DashboardState | undefined): string {
  return (
    `
    window.__posted = []; window.__state = ${JSON.stringify(initialState ?? null)}; window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
    window.acquireVsCodeApi = () => ({
      postMessage: (message) => window.__posted.push(message),
      getState: () => window.__state ?? undefined,
      setState: (state) => { window.__state = state; },
    });
    const theme = { '--vscode-foreground': '#cccccc', '--vscode-editor-background': '#1f1f1f', '--vscode-descriptionForeground': '#9d9d9d',
      '--vscode-font-family': 'sans-serif', '--vscode-font-size': '13px', '--vscode-button-background': ` +
    `'#0078d4', '--vscode-button-foreground': '#ffffff',
      '--vscode-button-secondaryBackground': '#313131', '--vscode-button-secondaryForeground': '#cccccc',
      '--vscode-input-background': '#313131', '--vscode-input-foreground': '#cccccc', '--vscode-panel-border': ` +
    `'#2b2b2b', '--vscode-focusBorder': '#0078d4',
      '--vscode-widget-border': '#313131', '--vscode-editorWidget-background': '#202020', '--vscode-textLink-foreground': '#4daafc',
      '--vscode-dropdown-background': '#313131', '--vscode-dropdown-foreground': '#cccccc', '--vscode-dropdown-border': '#3c3c3c',
      '--vscode-testing-iconPassed': '#73c991', '--vscode-charts-blue': '#3794ff', '--vscode-charts-yellow': ` +
    `'#cca700', '--vscode-errorForeground': '#f85149',
      '--vscode-charts-green': '#89d185', '--vscode-charts-orange': '#d18616', '--vscode-charts-purple': ` +
    `'#b180d7', '--vscode-charts-red': '#f14c4c',
      '--vscode-problemsWarningIcon-foreground': '#cca700',
      '--vscode-badge-background': '#616161', '--vscode-badge-foreground': '#f8f8f8', '--vscode-list-hoverBackground': '#2a2d2e' };
    document.addEventListener('DOMContentLoaded', () => { ` +
    `for (const [k, v] of Object.entries(theme)) document.documentElement.style.setProperty(k, v); });
  `
  );
}

export interface DashboardHarness {
  open(initialState?: DashboardState, viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Builds the bundle into its own folder (test files run in parallel) and serves it. */
export async function dashboardHarness(name: string): Promise<DashboardHarness> {
  const assets = path.join(base, `browser-test-${name}`);
  await buildWebview(assets);
  const html = dashboardHtml({
    cspSource: 'http://127.0.0.1:*',
    scriptUri: '/dashboard.js',
    styleUri: '/dashboard.css',
  });
  const server = http.createServer((request, response) => {
    const file = (request.url ?? '/').split('?')[0];
    if (file === '/index.html') return void response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    const asset = path.join(assets, path.basename(file));
    if (!fs.existsSync(asset)) return void response.writeHead(404).end();
    response
      .writeHead(200, { 'content-type': file.endsWith('.css') ? 'text/css' : 'text/javascript' })
      .end(fs.readFileSync(asset));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser: Browser = await chromium.launch({
    executablePath: paths.chromium,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    async open(initialState, viewport = { width: 1100, height: 760 }) {
      const page = await browser.newPage({ viewport });
      await page.addInitScript(fakeVsCodeApi(initialState));
      await page.goto(`${origin}/index.html`);
      await page.locator('[data-testid="query"]').waitFor();
      return page;
    },
    async close() {
      await browser.close();
      server.close();
    },
  };
}

export const posted = (page: Page) => page.evaluate<DashboardRequest[]>('window.__posted');
export const violations = (page: Page) => page.evaluate<string[]>('window.__violations');
/**
 * Delivers an update as the page's 'message' event, dispatched at once: the page has handled it
 * (and rendered) when this resolves. (`window.postMessage` queues the event: a check right after it
 * raced the render.)
 */
export const send = (page: Page, update: DashboardUpdate) =>
  page.evaluate(`window.dispatchEvent(new MessageEvent('message', { data: ${JSON.stringify(update)} }))`);

export function screenshotPath(file: string): string {
  fs.mkdirSync(paths.browserOutput, { recursive: true });
  return path.join(paths.browserOutput, file);
}
