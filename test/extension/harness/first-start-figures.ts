/**
 * What a new user reads before the agent has made a single call, in the rendered workbench: once
 * the user let them run (the launch modals), the workspace's own `.vscode/mcp.json` servers named
 * on the dashboard as listed twice with their tokens, equal to the user's own count (the SDK's
 * Client listing the same servers, o200k_base), the same after *Restart Gateway*; and the Powers
 * tree and the status bar agreeing that no power is in the agent's list.
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { getEncoding } from 'js-tiktoken';
import type { Frame, Page } from 'playwright-core';

/** A workspace mcp.json server, as written and as the harness starts it for its own count. */
export interface WorkspaceServer {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The demo servers the .vsix carries, as a user's mcp.json would name them (paths inside the installed extension). */
export function workspaceServers(
  extensionPath: string,
  node: string,
  workspace: string,
): { mcpJson: unknown; servers: WorkspaceServer[] } {
  const server = (name: string) =>
    path.join(extensionPath, 'dist', 'demo-servers', '@modelcontextprotocol', `server-${name}`, 'dist', 'index.js');
  const mcpJson = {
    servers: {
      memory: {
        type: 'stdio',
        command: node,
        args: [server('memory')],
        env: { MEMORY_FILE_PATH: '${workspaceFolder}/memory.jsonl' },
      },
      filesystem: { type: 'stdio', command: node, args: [server('filesystem'), '${workspaceFolder}'] },
    },
  };
  const servers = [
    {
      name: 'memory',
      command: node,
      args: [server('memory')],
      env: { MEMORY_FILE_PATH: path.join(workspace, 'own-count-memory.jsonl') },
    },
    { name: 'filesystem', command: node, args: [server('filesystem'), workspace] },
  ];
  return { mcpJson, servers };
}

/** The user's own count: each server's tools/list as the SDK's Client receives it, whole, in o200k_base tokens. */
export async function ownCounts(servers: WorkspaceServer[]): Promise<Map<string, { tools: number; tokens: number }>> {
  const encoding = getEncoding('o200k_base');
  const counts = new Map<string, { tools: number; tokens: number }>();
  for (const server of servers) {
    const client = new Client({ name: 'own-count', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: server.command,
        args: server.args,
        env: { PATH: process.env.PATH ?? '', ...(server.env ?? {}) },
        stderr: 'ignore',
      }),
    );
    try {
      const tools = (await client.listTools()).tools;
      counts.set(server.name, { tools: tools.length, tokens: encoding.encode(JSON.stringify(tools)).length });
    } finally {
      await client.close();
    }
  }
  return counts;
}

export interface ListedTwiceRead {
  power: string;
  tools: number;
  /** As the dashboard shows it ("2.36k"). */
  shown: string;
  tokens: number;
}

export interface FiguresAsUser {
  before: ListedTwiceRead[];
  afterRestart: ListedTwiceRead[];
  verdict: string;
  powersRows: string[];
  statusBar: string;
  problems: string[];
}

/** "2.36k" -> 2360 and the resolution the dashboard rounds to (webview/format.ts). */
function parseTokens(shown: string): { tokens: number; resolution: number } {
  const match = /^([\d.]+)(k|M)?$/.exec(shown)!;
  const value = Number(match[1]);
  if (match[2] === 'M') return { tokens: value * 1e6, resolution: value >= 10 ? 1e5 : 1e4 };
  if (match[2] === 'k') return { tokens: value * 1000, resolution: value >= 10 ? 1000 : 10 };
  return { tokens: value, resolution: 1 };
}

async function palette(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.keyboard.type(`>${title}`);
  await page.waitForTimeout(600);
  await page.keyboard.press('Enter');
}

/**
 * The user lets the workspace's servers run, as Grimoire asks before any server a workspace file
 * names: *Review Server Launches...*, then *Run It* in the modal of each (its default is not to run).
 */
async function approveLaunchesAsUser(page: Page, count: number): Promise<string[]> {
  const problems: string[] = [];
  await palette(page, 'Grimoire: Review Server Launches...');
  for (let i = 0; i < count; i++) {
    const run = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Run It' }).first();
    const shown = await run.waitFor({ timeout: 30_000 }).then(
      () => true,
      () => false,
    );
    if (!shown) {
      problems.push(`the launch modal ${i + 1} of ${count} (Run It) did not show`);
      break;
    }
    await run.click();
    await page.waitForTimeout(500);
  }
  return problems;
}

async function tokensFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const frame of page.frames())
      if (await frame.$('[data-testid="tools-list-savings"]').catch(() => null)) return frame;
    await page.waitForTimeout(250);
  }
  throw new Error('the dashboard shows no tool list figures');
}

/** Opens the dashboard and reads its "listed twice" lines once every expected power has one. */
async function readListedTwice(
  page: Page,
  powers: string[],
  name: string,
  screenshot: (name: string) => Promise<string>,
): Promise<{ rows: ListedTwiceRead[]; verdict: string }> {
  await palette(page, 'Grimoire: Open Dashboard');
  const frame = await tokensFrame(page);
  const deadline = Date.now() + 90_000;
  let rows: ListedTwiceRead[] = [];
  while (Date.now() < deadline) {
    const texts = await frame.$$eval('[data-testid="listed-twice"]', (items) =>
      items.map((item) => ({
        power: item.getAttribute('data-power') ?? '',
        text: (item.textContent ?? '').replace(/\s+/g, ' '),
      })),
    );
    rows = texts.flatMap(({ power, text }) => {
      const match = /its (\d+) tools? \(([\d.]+[kM]?) tokens\)/.exec(text);
      return match ? [{ power, tools: Number(match[1]), shown: match[2]!, tokens: parseTokens(match[2]!).tokens }] : [];
    });
    if (powers.every((power) => rows.some((row) => row.power === power))) break;
    await page.waitForTimeout(500);
  }
  const verdict = (
    (await frame
      .locator('[data-testid="tools-list-verdict"]')
      .textContent()
      .catch(() => '')) ?? ''
  )
    .replace(/\s+/g, ' ')
    .trim();
  await frame
    .locator('[data-testid="tokens-section"]')
    .scrollIntoViewIfNeeded()
    .catch(() => undefined);
  await screenshot(name);
  return { rows, verdict };
}

export async function figuresAsUser(
  page: Page,
  servers: WorkspaceServer[],
  screenshot: (name: string) => Promise<string>,
): Promise<FiguresAsUser> {
  const problems: string[] = [];
  const own = await ownCounts(servers);
  const names = servers.map((server) => server.name);

  // The tree and the status bar, before anything is activated: no power is in the agent's list.
  const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /^\s*Powers/i }) });
  await pane
    .locator('.monaco-list-row')
    .first()
    .waitFor({ timeout: 60_000 })
    .catch(() => undefined);
  const powersRows = await pane
    .locator('.monaco-list-row')
    .evaluateAll((rows) =>
      rows.map((row) =>
        [row.querySelector('.label-name')?.textContent, row.querySelector('.label-description')?.textContent]
          .filter(Boolean)
          .join(' ')
          .trim(),
      ),
    );
  const statusBar = (
    (await page
      .locator('.statusbar-item', { hasText: /Grimoire \d+\/\d+/ })
      .first()
      .textContent()
      .catch(() => '')) ?? ''
  ).trim();
  for (const name of names)
    if (!powersRows.some((row) => row.startsWith(`${name} `)))
      problems.push(
        `the Powers tree does not list "${name}" from the workspace mcp.json: ${JSON.stringify(powersRows)}`,
      );
  const shownActive = powersRows.filter((row) => / active · /.test(` ${row}`) || row.includes(' active ·'));
  if (shownActive.length > 0)
    problems.push(`the Powers tree shows powers active that no agent has: ${JSON.stringify(shownActive)}`);
  if (!/Grimoire 0\/\d+/.test(statusBar)) problems.push(`the status bar should count no active power: "${statusBar}"`);

  problems.push(...(await approveLaunchesAsUser(page, names.length)));

  const compare = (rows: ListedTwiceRead[], when: string) => {
    for (const name of names) {
      const row = rows.find((r) => r.power === name);
      const mine = own.get(name)!;
      if (!row) {
        problems.push(`${when}: the dashboard does not name "${name}" as listed twice`);
        continue;
      }
      const { resolution } = parseTokens(row.shown);
      if (row.tools !== mine.tools || Math.abs(row.tokens - mine.tokens) > resolution / 2) {
        problems.push(
          `${when}: "${name}" is ${row.tools} tools, ${row.shown} tokens on the dashboard; ` +
            `the SDK's Client counts ${mine.tools} tools, ${mine.tokens} tokens`,
        );
      }
    }
  };
  const before = await readListedTwice(page, names, 'first-start-dashboard', screenshot);
  compare(before.rows, 'before any call');
  if (/counted as none|No configured power has listed/.test(before.verdict))
    problems.push(`before any call, the dashboard counts the configured powers as none: ${before.verdict}`);
  if (!/VS Code lists directly besides it/.test(before.verdict))
    problems.push(`the per-request sentence does not account for what VS Code lists directly: ${before.verdict}`);

  await page.keyboard.press('Escape');
  await palette(page, 'View: Close All Editors');
  await palette(page, 'Grimoire: Restart Gateway');
  await page.waitForTimeout(3000);
  await page
    .locator('.statusbar-item', { hasText: /Grimoire \d+\/\d+/ })
    .first()
    .waitFor({ timeout: 60_000 })
    .catch(() => undefined);
  const after = await readListedTwice(page, names, 'first-start-dashboard-after-restart', screenshot);
  compare(after.rows, 'after Restart Gateway');
  return { before: before.rows, afterRestart: after.rows, verdict: before.verdict, powersRows, statusBar, problems };
}
