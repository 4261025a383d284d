import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  connectHttp,
  gatewayEnv,
  payload,
  startHttpGateway,
  type HttpGatewayProcess,
} from '../helpers/gateway-process.js';
import { cliPath, tempDir } from '../helpers/temp.js';

/**
 * The SDK's v2 Client on the demo gateway, pinned to 2026-07-28 and in its legacy mode, over stdio
 * and Streamable HTTP; the v1 Client over HTTP beside a modern one.
 */
const MODERN = { pin: '2026-07-28' } as const;
let home: { dir: string; cleanup: () => void };
let env: Record<string, string>;
let http: HttpGatewayProcess;

before(async () => {
  home = tempDir();
  env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  http = await startHttpGateway(['--demo'], env);
});

after(async () => {
  await http.stop();
  home.cleanup();
});

function stdioClient(mode: 'legacy' | typeof MODERN) {
  const client = new Client({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'serve', '--stdio', '--demo'],
    env,
    stderr: 'ignore',
  });
  return { client, transport };
}

function httpClient(token = http.token) {
  const client = new Client({ name: 'v2-test', version: '1.0.0' }, { versionNegotiation: { mode: MODERN } });
  const transport = new StreamableHTTPClientTransport(new URL(http.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  return { client, transport };
}

async function stableAcrossActivation(client: Client): Promise<void> {
  const before = await client.listTools();
  const activated = payload(await client.callTool({ name: 'activate_power', arguments: { name: 'memory' } }));
  assert.ok(
    activated.callable.some((t: { name: string }) => t.name === 'memory:read_graph'),
    JSON.stringify(activated),
  );
  const after = await client.listTools();
  assert.deepEqual(
    after.tools.map((t) => t.name),
    before.tools.map((t) => t.name),
  );
  const read = await client.callTool({
    name: 'call_tool_read',
    arguments: { name: 'memory:read_graph', args: {}, intent: { operation_type: 'read' } },
  });
  assert.notEqual(read.isError, true, JSON.stringify(read.content));
}

test('the v2 Client pinned to 2026-07-28 over stdio: its list stays the same, a power tool is called through call_tool_read', async () => {
  const { client, transport } = stdioClient(MODERN);
  await client.connect(transport);
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    await stableAcrossActivation(client);
  } finally {
    await client.close();
  }
});

test("the v2 Client in legacy mode over stdio: an activated power's tools join its list, as before", async () => {
  const { client, transport } = stdioClient('legacy');
  await client.connect(transport);
  try {
    assert.notEqual(client.getNegotiatedProtocolVersion(), '2026-07-28');
    await client.callTool({ name: 'activate_power', arguments: { name: 'memory' } });
    const { tools } = await client.listTools();
    assert.ok(
      tools.some((t) => t.name === 'memory__read_graph'),
      tools.map((t) => t.name).join(' '),
    );
  } finally {
    await client.close();
  }
});

test('the v2 Client pinned to 2026-07-28 over Streamable HTTP, beside a v1 Client with a session', async () => {
  const legacy = await connectHttp(http.url, http.token);
  const { client, transport } = httpClient();
  await client.connect(transport);
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    await stableAcrossActivation(client);
    // The modern client's activation is not the legacy session's.
    const { tools } = await legacy.client.listTools();
    assert.ok(!tools.some((t) => t.name.startsWith('memory__')), tools.map((t) => t.name).join(' '));
  } finally {
    await client.close();
    await legacy.client.close();
  }
});

test('over HTTP a modern request whose Mcp-Method header contradicts its body is refused', async () => {
  const response = await fetch(http.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${http.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-method': 'tools/call',
      'mcp-protocol-version': '2026-07-28',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const answer = (await response.json()) as { error?: { code: number } };
  assert.equal(answer.error?.code, -32020, JSON.stringify(answer));
});

function modernPost(method: string, params: Record<string, unknown>, id: number, name?: string): Promise<Response> {
  return fetch(http.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${http.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-method': method,
      'mcp-protocol-version': '2026-07-28',
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

test("over HTTP a modern listen stream carries its user's prompt list change when a power with prompts is activated", async () => {
  const stream = await modernPost(
    'subscriptions/listen',
    { notifications: { promptsListChanged: true, toolsListChanged: true } },
    7,
  );
  assert.equal(stream.status, 200);
  const reader = stream.body!.getReader();
  const seen: string[] = [];
  let text = '';
  const until = async (method: string) => {
    const deadline = Date.now() + 20_000;
    while (!seen.includes(method)) {
      if (Date.now() > deadline) throw new Error(`no ${method} on the stream: ${JSON.stringify(seen)}`);
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before ${method}: ${JSON.stringify(seen)}`);
      text += new TextDecoder().decode(value);
      for (const line of text.split('\n'))
        if (line.startsWith('data: ')) seen.push((JSON.parse(line.slice(6)) as { method?: string }).method ?? 'result');
      text = text.slice(text.lastIndexOf('\n') + 1);
    }
  };
  try {
    await until('notifications/subscriptions/acknowledged');
    const activated = await modernPost(
      'tools/call',
      { name: 'activate_power', arguments: { name: 'everything' } },
      8,
      'activate_power',
    );
    assert.equal(activated.status, 200);
    await activated.text();
    await until('notifications/prompts/list_changed');
    assert.ok(!seen.includes('notifications/tools/list_changed'), 'the modern tool list did not change');
  } finally {
    await reader.cancel();
  }
});
