/**
 * Captures what 14 real npm MCP servers (the ones installed below) tell a client at
 * `initialize` and `tools/list` into test/fixtures/real-servers/<server>.json, so benchmarks over
 * them run offline without starting them. Run it again when a server's version is bumped.
 *
 * Install the servers OUTSIDE the repository, then run:
 *   npm install --prefix /tmp/real-servers @modelcontextprotocol/server-everything \
 *     @modelcontextprotocol/server-memory @modelcontextprotocol/server-filesystem \
 *     @modelcontextprotocol/server-sequential-thinking @modelcontextprotocol/server-github \
 *     @playwright/mcp @cyanheads/git-mcp-server time-mcp mcp-fetch-server @antv/mcp-server-chart \
 *     @upstash/context7-mcp @notionhq/notion-mcp-server @wonderwhy-er/desktop-commander mcp-sqlite
 *   npx tsc -b && node out/test/bench/capture-real-servers.js /tmp/real-servers
 *
 * Each server starts with node and no network, as a user's offline machine would start it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from '../helpers/temp.js';
import { benchServerWordsRow, benchToolRows, type RealServerCapture } from './real-servers-fixture.js';

interface Launch {
  server: string;
  pkg: string;
  entry: string;
  args?: (scratch: string) => string[];
  env?: (scratch: string) => Record<string, string>;
}

const LAUNCHES: Launch[] = [
  {
    server: 'everything',
    pkg: '@modelcontextprotocol/server-everything',
    entry: 'dist/index.js',
    args: () => ['stdio'],
  },
  {
    server: 'memory',
    pkg: '@modelcontextprotocol/server-memory',
    entry: 'dist/index.js',
    env: (s) => ({ MEMORY_FILE_PATH: path.join(s, 'memory.jsonl') }),
  },
  { server: 'filesystem', pkg: '@modelcontextprotocol/server-filesystem', entry: 'dist/index.js', args: (s) => [s] },
  { server: 'sequential-thinking', pkg: '@modelcontextprotocol/server-sequential-thinking', entry: 'dist/index.js' },
  {
    server: 'github',
    pkg: '@modelcontextprotocol/server-github',
    entry: 'dist/index.js',
    env: () => ({ GITHUB_PERSONAL_ACCESS_TOKEN: 'offline-capture' }),
  },
  { server: 'playwright', pkg: '@playwright/mcp', entry: 'cli.js', args: () => ['--headless'] },
  {
    server: 'git',
    pkg: '@cyanheads/git-mcp-server',
    entry: 'dist/index.js',
    env: () => ({ MCP_TRANSPORT_TYPE: 'stdio' }),
  },
  { server: 'time', pkg: 'time-mcp', entry: 'dist/index.js' },
  { server: 'fetch', pkg: 'mcp-fetch-server', entry: 'dist/index.js' },
  { server: 'chart', pkg: '@antv/mcp-server-chart', entry: 'build/index.js' },
  { server: 'context7', pkg: '@upstash/context7-mcp', entry: 'dist/index.js' },
  { server: 'notion', pkg: '@notionhq/notion-mcp-server', entry: 'bin/cli.mjs' },
  { server: 'desktop-commander', pkg: '@wonderwhy-er/desktop-commander', entry: 'dist/index.js' },
  { server: 'sqlite', pkg: 'mcp-sqlite', entry: 'mcp-sqlite-server.js', args: (s) => [path.join(s, 'capture.db')] },
];

/** Keeps what an agent reads of a tool; drops output schemas and vendor metadata. */
function keptTool(tool: Tool): RealServerCapture['tools'][number] {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
  };
}

async function capture(prefix: string, launch: Launch): Promise<RealServerCapture> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `capture-${launch.server}-`));
  const entry = path.join(prefix, 'node_modules', launch.pkg, launch.entry);
  const version = (
    JSON.parse(fs.readFileSync(path.join(prefix, 'node_modules', launch.pkg, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const client = new Client({ name: 'grimoire-capture', version: '1' });
  const env = { PATH: process.env.PATH ?? '', HOME: scratch, ...(launch.env?.(scratch) ?? {}) };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, ...(launch.args?.(scratch) ?? [])],
    env,
    cwd: scratch,
    stderr: 'ignore',
  });
  try {
    await client.connect(transport, { timeout: 60_000 });
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: 60_000 });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const info = client.getServerVersion();
    const instructions = client.getInstructions();
    return {
      server: launch.server,
      package: launch.pkg,
      packageVersion: version,
      serverInfo: info as RealServerCapture['serverInfo'],
      ...(instructions ? { instructions } : {}),
      tools: tools.map(keptTool),
    };
  } finally {
    await client.close().catch(() => undefined);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const prefix = path.resolve(process.argv[2] ?? '/tmp/real-servers');
  const out = path.join(repoRoot, 'test', 'fixtures', 'real-servers');
  fs.mkdirSync(out, { recursive: true });
  const rows: string[] = [];
  const words: string[] = [];
  for (const launch of LAUNCHES) {
    const captured = await capture(prefix, launch);
    fs.writeFileSync(path.join(out, `${launch.server}.json`), JSON.stringify(captured, null, 2) + '\n');
    rows.push(...benchToolRows(captured).map((row) => JSON.stringify(row)));
    words.push(JSON.stringify(benchServerWordsRow(captured)));
    process.stdout.write(
      `${launch.server}: ${captured.tools.length} tools${captured.instructions ? ', instructions' : ''}\n`,
    );
  }
  // The same tools in the routing benchmark format, for `grimoire bench --tools`.
  fs.writeFileSync(
    path.join(repoRoot, 'test', 'fixtures', 'benchmarks', 'real-servers', 'tools.jsonl'),
    rows.join('\n') + '\n',
  );
  // What each server says of itself, so the bench can describe the servers as an import does.
  fs.writeFileSync(
    path.join(repoRoot, 'test', 'fixtures', 'benchmarks', 'real-servers', 'server-words.jsonl'),
    words.join('\n') + '\n',
  );
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
