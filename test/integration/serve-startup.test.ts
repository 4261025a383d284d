import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { test } from 'node:test';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { cliPath, tempDir } from '../helpers/temp.js';

/**
 * `serve --stdio` answers initialize and tools/list before the gateway is built; requests sent
 * right behind them wait for it and are answered once each, by the real session.
 */
test(
  'serve --stdio: early answers, then every request answered once by the built gateway',
  { timeout: 60_000 },
  async () => {
    const home = tempDir('grimoire-startup-test-');
    const child = spawn(process.execPath, [cliPath, 'serve', '--stdio', '--demo', '--no-imports'], {
      env: gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const answers = new Map<number, Array<Record<string, unknown>>>();
    const waiters = new Map<number, () => void>();
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number } & Record<string, unknown>;
      if (typeof message.id !== 'number') return;
      answers.set(message.id, [...(answers.get(message.id) ?? []), message]);
      waiters.get(message.id)?.();
    });
    const answered = (id: number) =>
      new Promise<void>((resolve) => (answers.has(id) ? resolve() : waiters.set(id, resolve)));
    const send = (message: object) => child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
    try {
      send({
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      await answered(1);
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/list', params: {} });
      send({
        id: 3,
        method: 'tools/call',
        params: { name: 'resolve_intent', arguments: { query: 'store a fact in the knowledge graph memory' } },
      });
      send({ id: 4, method: 'tools/list', params: {} });
      await Promise.all([answered(2), answered(3), answered(4)]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const id of [1, 2, 3, 4]) assert.equal(answers.get(id)?.length, 1, `request ${id} answered once`);
      const init = answers.get(1)![0]!.result as { serverInfo: { name: string }; capabilities: { tools?: unknown } };
      assert.equal(init.serverInfo.name, 'grimoire');
      assert.ok(init.capabilities.tools);
      const firstList = (answers.get(2)![0]!.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      assert.ok(firstList.includes('resolve_intent') && firstList.includes('activate_power'), firstList.join(', '));
      const call = answers.get(3)![0]!.result as { content: Array<{ text: string }>; isError?: boolean };
      assert.ok(!call.isError, JSON.stringify(call));
      assert.match(call.content[0]!.text, /memory/, 'the gateway resolved the query');
      const laterList = (answers.get(4)![0]!.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      for (const name of firstList) assert.ok(laterList.includes(name), `${name} is still listed by the built gateway`);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(kill);
      home.cleanup();
    }
  },
);
