/**
 * The token report counts each tool whole (output schema, title, annotations: as an MCP client
 * receives it), before any call and after a restart alike: the extension's gateway process
 * (server/extension-main.ts) over IPC, a workspace `.vscode/mcp.json` naming the real memory server,
 * and the same server listed by the SDK's Client as the user's own count; `grimoire stats` agrees.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { getEncoding } from 'js-tiktoken';
import { approveLaunches, gatewayEnv, waitFor } from '../helpers/gateway-process.js';
import { IpcPeer } from '../helpers/ipc-peer.js';
import { cliPath, repoRoot, tempDir } from '../helpers/temp.js';
import * as protocol from '../../protocol/extension-methods.js';
import type { TokenReportInfo } from '../../protocol/records.js';

const entry = path.join(repoRoot, 'out', 'server', 'extension-main.js');
const memoryServer = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const home = tempDir();
const workspace = path.join(home.dir, 'ws');
const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
const peers: IpcPeer[] = [];
after(async () => {
  for (const peer of peers) await peer.stop();
  home.cleanup();
});

fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
fs.writeFileSync(
  path.join(workspace, '.vscode', 'mcp.json'),
  JSON.stringify({
    servers: {
      memory: {
        type: 'stdio',
        command: process.execPath,
        args: [memoryServer],
        env: { MEMORY_FILE_PATH: '${workspaceFolder}/memory.jsonl' },
      },
    },
  }),
);

// The user approved the workspace server's launch (VS Code's modal, or the command line as here).
approveLaunches(env, ['memory'], ['--workspace', workspace]);

/** The gateway process as the extension starts it, on the same data dir each time (a restart). */
async function start(): Promise<IpcPeer> {
  const child = fork(entry, ['--node-ipc', `--clientProcessId=${process.pid}`], {
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const peer = new IpcPeer(child);
  peers.push(peer);
  await peer.request(
    { method: 'initialize' },
    {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
      workspaceFolders: null,
      initializationOptions: {
        workspaceFolder: workspace,
        settings: { demoPowers: false, spellFolders: [], gateway: { imports: { vscode: true, claudeDesktop: false } } },
      },
    },
  );
  peer.notify('initialized', {});
  return peer;
}

/** The user's own count: the server's tools as the SDK's Client receives them, in o200k_base tokens. */
async function ownCount(): Promise<{ tools: number; tokens: number; withoutOutputSchema: number }> {
  const client = new Client({ name: 'own-count', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [memoryServer],
      env: { PATH: process.env.PATH ?? '', MEMORY_FILE_PATH: path.join(home.dir, 'own.jsonl') },
      stderr: 'ignore',
    }),
  );
  try {
    const tools = (await client.listTools()).tools;
    const encoding = getEncoding('o200k_base');
    const bare = tools.map(({ outputSchema: _omitted, ...rest }) => rest);
    return {
      tools: tools.length,
      tokens: encoding.encode(JSON.stringify(tools)).length,
      withoutOutputSchema: encoding.encode(JSON.stringify(bare)).length,
    };
  } finally {
    await client.close();
  }
}

/** The first pushed report naming memory as listed twice: no call is made before it. */
async function pushedBeforeAnyCall(peer: IpcPeer): Promise<TokenReportInfo> {
  let report: TokenReportInfo | undefined;
  await waitFor(
    () =>
      (report = peer
        .received<TokenReportInfo>(protocol.tokenReportChanged)
        .find((r) => r.toolsList.listedTwice.some((e) => e.power === 'memory'))) !== undefined,
    30_000,
    'a token report pushed once discovery listed memory',
  );
  return report!;
}

test("before any call and after a restart, memory's tools are counted whole, as the user's own client counts them", async () => {
  const own = await ownCount();
  assert.ok(own.tokens > own.withoutOutputSchema + 200, `the output schemas weigh: ${JSON.stringify(own)}`);

  const first = await start();
  const report = await pushedBeforeAnyCall(first);
  assert.deepEqual(report.sessions.rows, [], 'no MCP session, no call: the figures come from discovery alone');
  const twice = report.toolsList.listedTwice.find((e) => e.power === 'memory')!;
  assert.deepEqual({ tools: twice.tools, tokens: twice.tokens }, { tools: own.tools, tokens: own.tokens });
  assert.deepEqual(
    [
      report.toolsList.configured.powers,
      report.toolsList.configured.unlisted,
      report.toolsList.configured.tools,
      report.toolsList.configured.tokens,
    ],
    [1, 0, own.tools, own.tokens],
  );
  assert.deepEqual(report.toolsList.alsoDirect, { tools: own.tools, tokens: own.tokens });
  assert.equal(
    report.toolsList.savedTokens,
    report.toolsList.configured.tokens - report.toolsList.gateway.tokens - report.toolsList.alsoDirect.tokens,
    "Grimoire's side carries what VS Code lists directly besides it",
  );
  await first.stop();

  const second = await start();
  // Asked before anything lists memory again: the catalog alone must give the same figure.
  const again = await second.request<null, TokenReportInfo>(protocol.getTokenReport, null);
  const twiceAgain = again.toolsList.listedTwice.find((e) => e.power === 'memory');
  assert.deepEqual(
    twiceAgain && { tools: twiceAgain.tools, tokens: twiceAgain.tokens },
    { tools: own.tools, tokens: own.tokens },
    JSON.stringify(again.toolsList),
  );
  assert.equal(again.toolsList.configured.tokens, report.toolsList.configured.tokens);
  await second.stop();

  // `grimoire stats` reads the same catalog and counts the same way.
  const stats = JSON.parse(
    execFileSync(process.execPath, [cliPath, 'stats', '--json', '--workspace', workspace], { env, encoding: 'utf8' }),
  ) as { tokens: TokenReportInfo };
  assert.deepEqual(
    stats.tokens.toolsList.listedTwice.map((e) => [e.power, e.tools, e.tokens]),
    [['memory', own.tools, own.tokens]],
  );
  assert.deepEqual(stats.tokens.toolsList.configured, report.toolsList.configured);
  assert.deepEqual(stats.tokens.toolsList.alsoDirect, report.toolsList.alsoDirect);
});
