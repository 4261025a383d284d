import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as readline from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { cliPath } from './temp.js';

export interface GatewayEnv {
  home: string;
  data: string;
}

export function gatewayEnv(paths: GatewayEnv, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: paths.home,
    GRIMOIRE_HOME: paths.home,
    GRIMOIRE_DATA: paths.data,
    GRIMOIRE_LOG: process.env.GRIMOIRE_TEST_LOG ?? 'warn',
    // Tests never reach the network: no model download is attempted.
    GRIMOIRE_OFFLINE: '1',
    ...extra,
  };
}

/** The user approves these imported or workspace servers' launches on the command line (`grimoire powers approve`). */
export function approveLaunches(env: Record<string, string>, names: string[], cliArgs: string[] = []): void {
  for (const name of names)
    execFileSync(process.execPath, [cliPath, 'powers', 'approve', name, ...cliArgs], { env, stdio: 'ignore' });
}

/**
 * A real MCP client on a real gateway process over stdio (`nodeArgs`: flags for its node, e.g. --cpu-prof);
 * counts tools/list_changed notifications.
 */
export async function connectStdio(args: string[], env: Record<string, string>, nodeArgs: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, cliPath, 'serve', '--stdio', ...args],
    env,
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'grimoire-test', version: '1.0.0' });
  const listChanged = { count: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    listChanged.count += 1;
  });
  const logMessages: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => {
    logMessages.push(String(notification.params.data));
  });
  await client.connect(transport);
  return { client, transport, listChanged, logMessages, stderr, pid: transport.pid };
}

export interface HttpGatewayProcess {
  process: ChildProcess;
  url: string;
  token: string;
  stderr: string[];
  stop(): Promise<void>;
}

/** Starts `grimoire serve --http` and reads the {url, token} line it prints. */
/** `cli`: another build's out/server/cli/main.js (benchmarks comparing builds). */
export async function startHttpGateway(
  args: string[],
  env: Record<string, string>,
  cli = cliPath,
): Promise<HttpGatewayProcess> {
  const child = spawn(process.execPath, [cli, 'serve', '--http', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const lines = readline.createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`gateway exited (${code}) before printing its address: ${stderr.join('')}`)),
    );
  });
  const { url, token } = JSON.parse(first) as { url: string; token: string };
  return {
    process: child,
    url,
    token,
    stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        // A child killed by a signal (a test's SIGKILL) has no exit code, only a signal: it has exited too.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function connectHttp(url: string, token: string) {
  const client = new Client({ name: 'grimoire-test', version: '1.0.0' });
  const listChanged = { count: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    listChanged.count += 1;
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, listChanged };
}

/** Parses the JSON a gateway tool returns. */
export function payload(result: unknown): Record<string, any> {
  const r = result as { structuredContent?: Record<string, any>; content?: Array<{ type: string; text?: string }> };
  if (r.structuredContent) return r.structuredContent;
  const text = r.content?.find((c) => c.type === 'text')?.text ?? '{}';
  return JSON.parse(text);
}

export function textOf(result: unknown): string {
  const r = result as { content?: Array<{ type: string; text?: string }> };
  return (r.content ?? []).map((c) => c.text ?? '').join('\n');
}

export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
