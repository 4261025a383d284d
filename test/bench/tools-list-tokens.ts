/**
 * What `tools/list` costs the agent, in tokens (o200k_base, js-tiktoken): the gateway before any
 * activation, versus every demo power's tools exposed directly, versus all of them activated
 * through the gateway (steering included). Prints JSON.   Run: npm run bench:tokens
 */
import * as path from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { connectStdio, gatewayEnv } from '../helpers/gateway-process.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

const encoding = getEncoding('o200k_base');
const tokens = (tools: Tool[]) => encoding.encode(JSON.stringify(tools)).length;
const modules = path.join(repoRoot, 'node_modules', '@modelcontextprotocol');

async function directTools(args: string[]): Promise<Tool[]> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

async function main(): Promise<void> {
  const home = tempDir();
  const project = path.join(repoRoot, 'server', 'demo', 'project');
  const direct = {
    filesystem: await directTools([path.join(modules, 'server-filesystem', 'dist', 'index.js'), project]),
    memory: await directTools([path.join(modules, 'server-memory', 'dist', 'index.js')]),
    everything: await directTools([path.join(modules, 'server-everything', 'dist', 'index.js'), 'stdio']),
  };
  const allDirect = Object.values(direct).flat();

  const session = await connectStdio(['--demo', '--no-imports'], gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }));
  const before = (await session.client.listTools()).tools;
  for (const name of Object.keys(direct)) await session.client.callTool({ name: 'activate_power', arguments: { name } });
  const allActive = (await session.client.listTools()).tools;
  await session.client.close();
  home.cleanup();

  const result = {
    tokenizer: 'o200k_base',
    gateway_before_activation: { tools: before.length, tokens: tokens(before) },
    demo_powers_direct: {
      tools: allDirect.length,
      tokens: tokens(allDirect),
      per_power: Object.fromEntries(Object.entries(direct).map(([name, tools]) => [name, { tools: tools.length, tokens: tokens(tools) }])),
    },
    gateway_all_demo_powers_active: { tools: allActive.length, tokens: tokens(allActive) },
  };
  const saved = 1 - result.gateway_before_activation.tokens / result.demo_powers_direct.tokens;
  process.stdout.write(JSON.stringify({ ...result, saved_before_activation: Math.round(saved * 1000) / 1000 }, null, 2) + '\n');
}

void main();
