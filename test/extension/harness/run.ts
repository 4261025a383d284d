/**
 * Runs the extension tests in a real VS Code: packs the .vsix, installs it with VS Code's own server
 * (from code-server, see setup.ts), opens the workbench in headless Chromium with Playwright and lets
 * VS Code's test runner load test/extension/suite into the extension host. The suite asks this harness
 * for screenshots and for what only the rendered page shows (harness-client.ts).
 * Output (screenshots, logs, timings) goes to out/test-output/vscode/.
 * Usage: node out/test/extension/harness/run.js   (after setup.js)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Frame, type Page } from 'playwright-core';
import {
  HARNESS_PREFIX,
  TEST_MODEL_ID,
  type DashboardAnswer,
  type GrammarAnswer,
  type HarnessRequest,
  type SnapshotAnswer,
} from '../suite/harness-client.js';
import { dashboardSections, readPane, readProblems, readText, readWelcome, typeInEditor } from './views.js';
import { tokenizeSpell } from './grammar.js';
import { walkthroughAsUser, type WalkthroughAsUser } from './walkthrough-as-user.js';
import { figuresAsUser, workspaceServers, type FiguresAsUser } from './first-start-figures.js';
import { paths, repoRoot } from './paths.js';
import { currentTarget, isRuntimeTarget } from '../../../server/resolve/semantic/runtime-builds.js';

const RUN_TIMEOUT_MS = 10 * 60_000;
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const dirs = {
  home: path.join(paths.run, 'home'),
  grimoireHome: path.join(paths.run, 'grimoire-home'),
  serverData: path.join(paths.run, 'server-data'),
  /**
   * Outside the repository, as in a user's profile: Node must not find the repository's node_modules
   * above the installed extension (the .vsix has to run without them), so it is removed after the run.
   */
  installed: path.join(os.tmpdir(), `grimoire-vsix-test-${process.pid}`),
  noExtensions: path.join(paths.run, 'no-extensions'),
  workspace: path.join(paths.run, 'workspace'),
  harness: path.join(paths.run, 'harness'),
  browserProfile: path.join(paths.run, 'chromium-profile'),
  /** The first start as a user has it (walkthrough-as-user.ts): its own install, VS Code data, Grimoire data and browser. */
  userInstalled: path.join(os.tmpdir(), `grimoire-vsix-user-${process.pid}`),
  userServerData: path.join(paths.run, 'user-server-data'),
  userGrimoireHome: path.join(paths.run, 'user-grimoire-home'),
  userWorkspace: path.join(paths.run, 'user-workspace'),
  userBrowserProfile: path.join(paths.run, 'user-chromium-profile'),
};

const WALKTHROUGH_TITLE = 'Get started with Grimoire';

function log(message: string): void {
  console.log(`[harness] ${message}`);
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function prepare(): void {
  fs.rmSync(paths.run, { recursive: true, force: true });
  fs.rmSync(paths.output, { recursive: true, force: true });
  for (const dir of [...Object.values(dirs), paths.output]) fs.mkdirSync(dir, { recursive: true });
  // Semantic matching with the tiny fixture model, which only the Download Semantic Model test fetches
  // (from a 127.0.0.1 server): until then the gateway finds no model and never reaches for the network.
  writeJson(path.join(dirs.grimoireHome, 'settings.json'), {
    resolve: { semantic: { model: TEST_MODEL_ID, allowRemoteModels: false } },
  });
  writeJson(path.join(dirs.workspace, '.vscode', 'settings.json'), {
    'grimoire.demoPowers': true,
    'grimoire.imports.vscode': false,
    'grimoire.imports.claudeDesktop': false,
  });
  fs.writeFileSync(path.join(dirs.workspace, 'README.md'), '# A workspace for the Grimoire extension tests\n');
  // Nothing may reach for the network: no update or gallery checks.
  // The run folder sits in the repository: VS Code would offer to open its git repository.
  const offline = {
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    'telemetry.telemetryLevel': 'off',
    'chat.mcp.autostart': 'never',
    'git.openRepositoryInParentFolders': 'never',
  };
  writeJson(path.join(dirs.serverData, 'data', 'Machine', 'settings.json'), {
    ...offline,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
  });
  // The user's first start keeps VS Code's own Welcome page at startup.
  writeJson(path.join(dirs.userServerData, 'data', 'Machine', 'settings.json'), offline);
  fs.writeFileSync(path.join(dirs.userWorkspace, 'README.md'), "# A new user's workspace\n");
}

/**
 * Installs the .vsix into its own extensions folder, with a workspace whose own .vscode/mcp.json names
 * two servers, starts VS Code on it and waits as a new user does (walkthrough-as-user.ts), then reads
 * the figures before any call and after a restart (first-start-figures.ts).
 */
async function firstStartAsUser(
  vsix: string,
): Promise<WalkthroughAsUser & { figures: FiguresAsUser | { error: string } }> {
  const env = { ...serverEnv(), GRIMOIRE_HOME: dirs.userGrimoireHome, GRIMOIRE_HARNESS_DIR: undefined };
  const extensionPath = installVsix(vsix, dirs.userInstalled, dirs.userServerData, env);
  const { mcpJson, servers } = workspaceServers(extensionPath, paths.node, dirs.userWorkspace);
  writeJson(path.join(dirs.userWorkspace, '.vscode', 'mcp.json'), mcpJson);
  const port = await freePort();
  const server = await startVsCodeServer(port, {
    extensionsDir: dirs.userInstalled,
    serverData: dirs.userServerData,
    env,
    logName: 'vscode-server-user.log',
  });
  const browser = await chromium.launchPersistentContext(dirs.userBrowserProfile, {
    executablePath: paths.chromium,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1440, height: 900 },
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const screenshot = async (name: string) => {
      const file = path.join(paths.output, `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    };
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(dirs.userWorkspace)}`);
    const walkthrough = await walkthroughAsUser(page, WALKTHROUGH_TITLE, Date.now(), screenshot);
    const figures = await figuresAsUser(page, servers, screenshot).catch((error: Error) => ({ error: error.message }));
    return { ...walkthrough, figures };
  } finally {
    await browser.close().catch(() => undefined);
    fs.rmSync(dirs.userInstalled, { recursive: true, force: true });
    stopServer(server);
  }
}

function stopServer(server: ChildProcess): void {
  if (!server.pid) return;
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/**
 * The build VS Code would install from the Marketplace on this machine: its platform's build (with the
 * semantic runtime) where there is one, else the universal build. `universal` packs the universal one.
 */
function packageVsix(universal = false): string {
  const target = universal ? undefined : currentTarget();
  const platformBuild = target !== undefined && isRuntimeTarget(target);
  const vsix = path.join(paths.run, platformBuild ? 'grimoire.vsix' : 'grimoire-universal.vsix');
  const args = ['--out', vsix, ...(platformBuild ? ['--target', target] : [])];
  const result = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'out', 'tools', 'packaging', 'package.js'), ...args],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`npm run package failed:\n${result.stdout}\n${result.stderr}`);
  // vsce's own line counts the files; package.js's last line gives the exact size.
  const lines = result.stdout
    .replace(/\x1b\[[0-9;]*m/g, '')
    .trim()
    .split('\n');
  const summary = [lines.find((line) => line.includes('Packaged:'))?.trim(), lines.at(-1)].filter(Boolean).join('; ');
  log(`packed ${platformBuild ? `the ${target} build` : 'the universal build'}: ${summary}`);
  fs.appendFileSync(path.join(paths.output, 'package.txt'), summary + '\n');
  return vsix;
}

/** An mcp.json server in the workspace, for "New Spell File..." from an existing entry (not imported: imports are off). */
function writeWorkspaceMcpJson(extensionPath: string): void {
  const memoryServer = path.join(
    extensionPath,
    'dist',
    'demo-servers',
    '@modelcontextprotocol',
    'server-memory',
    'dist',
    'index.js',
  );
  writeJson(path.join(dirs.workspace, '.vscode', 'mcp.json'), {
    servers: {
      'Team Notes': {
        type: 'stdio',
        command: paths.node,
        args: [memoryServer],
        env: { MEMORY_FILE_PATH: '${workspaceFolder}/team-notes.jsonl' },
      },
    },
  });
}

function serverEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${path.dirname(paths.node)}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: dirs.home,
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    XDG_DATA_HOME: path.join(dirs.home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    TMPDIR: paths.tmp,
    GRIMOIRE_HOME: dirs.grimoireHome,
    GRIMOIRE_HARNESS_DIR: dirs.harness,
    VSCODE_CLI: undefined,
  };
}

/** Installs the .vsix the way a user would, with VS Code's own installer; returns the installed folder. */
function installVsix(
  vsix: string,
  extensionsDir = dirs.installed,
  serverData = dirs.serverData,
  env = serverEnv(),
): string {
  const result = spawnSync(
    paths.node,
    [
      paths.serverMain,
      '--install-extension',
      vsix,
      '--extensions-dir',
      extensionsDir,
      '--server-data-dir',
      serverData,
      '--accept-server-license-terms',
    ],
    {
      env,
      encoding: 'utf8',
    },
  );
  const installed = fs.readdirSync(extensionsDir).find((name) => name.startsWith('grimoire.grimoire-'));
  if (result.status !== 0 || !installed)
    throw new Error(`installing the .vsix failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  log(`installed ${installed}: ${result.stdout.trim().split('\n').at(-1)}`);
  return path.join(extensionsDir, installed);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function httpOk(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    http
      .get(url, (response) => {
        response.resume();
        resolve((response.statusCode ?? 500) < 400);
      })
      .on('error', () => resolve(false));
  });
}

/**
 * VS Code's server; by default the test runner's (its smoke-test driver on, no installed extensions: the
 * suite loads the installed folder for development).
 */
async function startVsCodeServer(
  port: number,
  options: { extensionsDir?: string; serverData?: string; env?: NodeJS.ProcessEnv; logName?: string } = {},
): Promise<ChildProcess> {
  const {
    extensionsDir = dirs.noExtensions,
    serverData = dirs.serverData,
    env = serverEnv(),
    logName = 'vscode-server.log',
  } = options;
  const logFile = fs.openSync(path.join(paths.output, logName), 'w');
  const server = spawn(
    paths.node,
    [
      paths.serverMain,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--without-connection-token',
      '--accept-server-license-terms',
      ...(extensionsDir === dirs.noExtensions ? ['--enable-smoke-test-driver'] : []),
      '--disable-workspace-trust',
      '--server-data-dir',
      serverData,
      '--extensions-dir',
      extensionsDir,
    ],
    { env, stdio: ['ignore', logFile, logFile], detached: true },
  );
  const deadline = Date.now() + 60_000;
  while (!(await httpOk(`http://127.0.0.1:${port}/`))) {
    if (server.exitCode !== null)
      throw new Error(`VS Code's server exited with ${server.exitCode}: see out/test-output/vscode/${logName}`);
    if (Date.now() > deadline) throw new Error("VS Code's server did not answer within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return server;
}

/** The webview frame that holds the dashboard page. */
async function dashboardFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const found = await frame.$('[data-testid="query"]').catch(() => null);
      if (found) return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error('no dashboard webview on the page');
}

async function rowsOf(frame: Frame, attribute: string): Promise<Array<{ name: string; text: string }>> {
  return frame.$$eval(
    `[${attribute}]`,
    (rows, attr) =>
      rows.map((row) => ({
        name: row.getAttribute(attr) ?? '',
        text: (row.textContent ?? '').replace(/\s+/g, ' ').trim(),
      })),
    attribute,
  );
}

class Harness {
  private queue: Promise<void> = Promise.resolve();
  readonly timings: unknown[] = [];

  constructor(
    private readonly page: Page,
    private readonly extensionPath: string,
  ) {}

  onLog(type: string, args: unknown[]): void {
    const line = args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ');
    fs.appendFileSync(path.join(paths.output, 'extension-host.log'), `${type} ${line}\n`);
    if (line.startsWith('[grimoire-timings] ')) this.timings.push(JSON.parse(line.slice('[grimoire-timings] '.length)));
    if (line.startsWith(HARNESS_PREFIX)) {
      const request = JSON.parse(line.slice(HARNESS_PREFIX.length)) as HarnessRequest & { id: string };
      this.queue = this.queue.then(() => this.answer(request));
      return;
    }
    if (/^(ok|not ok|#|1\.\.)/.test(line) || type === 'error') console.log(line);
  }

  private async answer(request: HarnessRequest & { id: string }): Promise<void> {
    let answer: unknown;
    try {
      switch (request.action) {
        case 'snapshot':
          answer = await this.snapshot(request.name);
          break;
        case 'dashboard':
          answer = await this.dashboard(request.name, request.query, request.activate);
          break;
        case 'grammar':
          answer = {
            lines: await tokenizeSpell(paths.vscode, this.extensionPath, request.file),
          } satisfies GrammarAnswer;
          break;
        case 'pane':
          answer = await readPane(this.page, request, (name) => this.screenshot(name));
          break;
        case 'dashboardSections':
          answer = await dashboardSections(this.page, await dashboardFrame(this.page), request.name, paths.output);
          break;
        case 'welcome':
          answer = await readWelcome(this.page, request.name, (name) => this.screenshot(name));
          break;
        case 'text':
          answer = await readText(this.page, request.name, request.selector, request.waitFor, (name) =>
            this.screenshot(name),
          );
          break;
        case 'type':
          answer = await typeInEditor(this.page, request.name, request.text, (name) => this.screenshot(name));
          break;
        case 'problems':
          answer = await readProblems(this.page, request.name, (name) => this.screenshot(name));
          break;
      }
    } catch (error) {
      answer = { error: (error as Error).message };
    }
    writeJson(path.join(dirs.harness, `${request.id}.json`), answer);
  }

  private async screenshot(name: string): Promise<string> {
    const file = path.join(paths.output, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  private async snapshot(name: string): Promise<SnapshotAnswer> {
    await this.page.waitForTimeout(500);
    const pane = this.page.locator('.pane', { has: this.page.locator('.pane-header', { hasText: /^\s*Powers/i }) });
    const header = pane.locator('.pane-header').first();
    if ((await header.count()) && (await header.getAttribute('aria-expanded')) === 'false') {
      // On the twistie: the header's middle holds the view's actions.
      await header.click({ position: { x: 12, y: 10 } });
      await this.page.waitForTimeout(300);
    }
    // The tree renders only the rows in view: collapse everything to read every power, then open one for the picture.
    for (const expanded of await pane.locator('.monaco-list-row[aria-expanded="true"]').all()) await expanded.click();
    await this.page.waitForTimeout(300);
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
    const statusBar = await this.page
      .locator('.statusbar-item')
      .evaluateAll((items) =>
        items.map((item) => (item.getAttribute('aria-label') ?? item.textContent ?? '').trim()).filter(Boolean),
      );
    const filesystem = pane.locator('.monaco-list-row[aria-expanded="false"]', { hasText: 'filesystem' }).first();
    if (await filesystem.count()) await filesystem.click();
    await this.page.waitForTimeout(300);
    return { screenshot: await this.screenshot(name), powersRows, statusBar };
  }

  private async dashboard(name: string, query?: string, activate?: string): Promise<DashboardAnswer> {
    const frame = await dashboardFrame(this.page);
    if (query) {
      await frame.locator('[data-testid="query"] input').fill(query);
      await frame.locator('[data-testid="resolve"]').click();
      await frame.locator('[data-testid="tier"]', { hasText: query }).waitFor({ timeout: 20_000 });
    } else {
      await frame.locator('[data-testid="tier"]').waitFor({ timeout: 20_000 });
    }
    const before = await this.screenshot(name);
    if (activate) {
      await frame.locator(`[data-score="${activate}"] vscode-button`).click();
      await frame.locator(`[data-score="${activate}"] .actions`, { hasText: 'active' }).waitFor({ timeout: 30_000 });
      await this.screenshot(`${name}-activated`);
    }
    return {
      screenshot: before,
      query: await frame.locator('[data-testid="query"] input').inputValue(),
      tier: ((await frame.locator('[data-testid="tier"]').textContent()) ?? '').replace(/\s+/g, ' ').trim(),
      scores: await rowsOf(frame, 'data-score'),
      powers: await rowsOf(frame, 'data-power'),
    };
  }
}

/** The Grimoire output channel must show the endpoint and never its token. */
function checkOutputChannel(): string[] {
  const logs = path.join(dirs.serverData, 'data', 'logs');
  const files = fs.existsSync(logs)
    ? (fs.readdirSync(logs, { recursive: true }) as string[]).filter((file) => /Grimoire\.log$/.test(file))
    : [];
  const problems: string[] = [];
  if (files.length === 0) return ['no Grimoire output channel log was written'];
  const text = files.map((file) => fs.readFileSync(path.join(logs, file), 'utf8')).join('\n');
  fs.writeFileSync(path.join(paths.output, 'grimoire-output.log'), text);
  if (!/MCP endpoint for VS Code: http:\/\/127\.0\.0\.1:\d+\/mcp/.test(text))
    problems.push('the output channel does not show the MCP endpoint');
  if (!/gateway ready/.test(text)) problems.push('the output channel does not show the gateway timings');
  if (/Bearer\s+(?!\*\*\*)[A-Za-z0-9_-]{16,}/.test(text) || /"token"\s*:\s*"(?!\*\*\*)[^"]{16,}"/.test(text))
    problems.push('the output channel shows a bearer token');
  return problems;
}

async function main(): Promise<number> {
  const started = Date.now();
  if (!fs.existsSync(paths.serverMain) || !fs.existsSync(paths.node))
    throw new Error('run the setup first: node out/test/extension/harness/setup.js');
  prepare();
  const vsix = packageVsix();
  const extensionPath = installVsix(vsix);
  writeWorkspaceMcpJson(extensionPath);
  const port = await freePort();
  const server = await startVsCodeServer(port);
  let browser: BrowserContext | undefined;
  try {
    browser = await chromium.launchPersistentContext(dirs.browserProfile, {
      executablePath: paths.chromium,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1440, height: 900 },
    });
    const page = browser.pages()[0] ?? (await browser.newPage());
    const harness = new Harness(page, extensionPath);
    let finish: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (finish = resolve));
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => harness.onLog(type, args));
    await page.exposeFunction('codeAutomationExit', (code: number) => finish(code));
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${port}${extensionPath}`],
      ['extensionTestsPath', `vscode-remote://127.0.0.1:${port}${paths.suite}`],
    ];
    await page.goto(
      `http://127.0.0.1:${port}/?folder=${encodeURIComponent(dirs.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`,
    );
    const timeout = new Promise<number>((resolve) => setTimeout(() => resolve(-1), RUN_TIMEOUT_MS).unref());
    const code = await Promise.race([exited, timeout]);
    if (code === -1) {
      await page.screenshot({ path: path.join(paths.output, 'timeout.png') }).catch(() => undefined);
      log(`the tests did not finish within ${RUN_TIMEOUT_MS / 60_000} minutes`);
    }
    const problems = checkOutputChannel();
    await browser.close().catch(() => undefined);
    browser = undefined;
    // The suite loads the extension for development, activated before VS Code has registered its walkthrough:
    // the first start as a user has it is checked here.
    const userStarted = Date.now();
    const firstStart = await firstStartAsUser(isRuntimeTarget(currentTarget()) ? packageVsix(true) : vsix);
    const userSeconds = Math.round((Date.now() - userStarted) / 100) / 10;
    if (firstStart.shown === WALKTHROUGH_TITLE)
      log(
        `ok: installed from the .vsix, the first start opens the walkthrough "${firstStart.shown}" ` +
          `${firstStart.afterLoadMs} ms after the page loaded, with no click (the status item in ` +
          `${firstStart.statusItemMs} ms) (${userSeconds} s for this check)`,
      );
    else
      problems.push(
        `installed from the .vsix, the first start shows ` +
          `${firstStart.shown ? `the walkthrough "${firstStart.shown}"` : "VS Code's list of walkthroughs"} ` +
          `instead of "${WALKTHROUGH_TITLE}" without a click: see ` +
          `${path.relative(repoRoot, firstStart.screenshot)}`,
      );
    if (firstStart.statusItemMs < 0) problems.push("Grimoire's status item did not show at startup");
    if (firstStart.tickedSteps.length === 0) log('ok: opening the Grimoire view ticks no walkthrough step');
    else
      problems.push(
        `opening the Grimoire view ticked walkthrough steps nobody did: ${firstStart.tickedSteps.join(', ')}`,
      );
    if (/lexical only/.test(firstStart.lexicalItem))
      log(
        `ok: the universal build says "${firstStart.lexicalItem}" in the status bar; its click offers: ${firstStart.sources.join(' | ')}`,
      );
    else problems.push('the universal build shows no "lexical only" status item');
    if (
      firstStart.lexicalItem &&
      !['Download from Hugging Face', 'Download from a mirror...', 'Use a folder on this machine...'].every((source) =>
        firstStart.sources.includes(source),
      )
    )
      problems.push(
        `Download Semantic Model should offer Hugging Face, a mirror and a folder; it offered: ${firstStart.sources.join(' | ')}`,
      );
    // The universal build has no semantic runtime: its command says which build has it, and asks for no npm.
    const advice = `The ${currentTarget()} build of Grimoire carries it`;
    if (!isRuntimeTarget(currentTarget()))
      log(`no platform build for ${currentTarget()}: the universal build's message is not checked`);
    else if (firstStart.downloadMessage.includes(advice) && !/npm/.test(firstStart.downloadMessage))
      log(`ok: the universal build's Download Semantic Model says: ${firstStart.downloadMessage}`);
    else
      problems.push(
        `the universal build's Download Semantic Model should say "${advice}" and never ask for npm; ` +
          `it said: ${firstStart.downloadMessage}`,
      );
    const figures = firstStart.figures;
    if ('error' in figures) problems.push(`the first start's figures could not be read: ${figures.error}`);
    else {
      problems.push(...figures.problems);
      if (figures.problems.length === 0) {
        log(
          `ok: before any call the dashboard names ` +
            `${figures.before.map((row) => `${row.power} (${row.tools} tools, ${row.shown} tokens)`).join(', ')} ` +
            `as listed twice, as the SDK's Client counts them, and the same after Restart Gateway; ` +
            `the tree (${figures.powersRows.join('; ')}) and the status bar ("${figures.statusBar}") show ` +
            `no power active`,
        );
      }
    }
    for (const problem of problems) log(`FAIL: ${problem}`);
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    writeJson(path.join(paths.output, 'result.json'), {
      exitCode: code,
      problems,
      firstStartAsUser: { ...firstStart, checkSeconds: userSeconds },
      timings: harness.timings,
      wallSeconds: seconds,
    });
    log(
      `VS Code test runner exit code ${code}; ${seconds} s; screenshots and logs in ${path.relative(repoRoot, paths.output)}/`,
    );
    return code === 0 && problems.length === 0 ? 0 : 1;
  } finally {
    await browser?.close().catch(() => undefined);
    fs.rmSync(dirs.installed, { recursive: true, force: true });
    stopServer(server);
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`[harness] ${(error as Error).stack ?? String(error)}`);
    process.exitCode = 1;
  },
);
