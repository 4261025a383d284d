/**
 * The demo powers' servers connected directly (no gateway), as an MCP client configured with them
 * would: the baseline the gateway's token cost is measured against.
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { getEncoding } from 'js-tiktoken';
import { repoRoot } from './temp.js';

const modules = path.join(repoRoot, 'node_modules', '@modelcontextprotocol');
export const DEMO_PROJECT = path.join(repoRoot, 'server', 'demo', 'project');

/** The command line of each demo power's server, as the demo spells start it. */
export function demoServerArgs(
  memoryFile: string,
): Record<'filesystem' | 'memory' | 'everything', { args: string[]; env?: Record<string, string> }> {
  return {
    filesystem: { args: [path.join(modules, 'server-filesystem', 'dist', 'index.js'), DEMO_PROJECT] },
    memory: { args: [path.join(modules, 'server-memory', 'dist', 'index.js')], env: { MEMORY_FILE_PATH: memoryFile } },
    everything: { args: [path.join(modules, 'server-everything', 'dist', 'index.js'), 'stdio'] },
  };
}

export async function connectDirect(server: { args: string[]; env?: Record<string, string> }): Promise<Client> {
  const client = new Client({ name: 'direct', version: '1' });
  const env = { PATH: process.env.PATH ?? '', ...(server.env ?? {}) };
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: server.args, env, stderr: 'ignore' }),
  );
  return client;
}

const encoding = getEncoding('o200k_base');

/** Tokens of a value as the agent reads it (JSON text), o200k_base. */
export function tokensOf(value: unknown): number {
  return encoding.encode(typeof value === 'string' ? value : JSON.stringify(value)).length;
}
