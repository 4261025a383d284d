/**
 * The extension's gateway process (server/extension-main.ts) driven the way vscode-languageclient
 * drives it: forked with --node-ipc, JSON-RPC messages over the IPC channel.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectHttp, gatewayEnv, isAlive, waitFor } from '../helpers/gateway-process.js';
import { repoRoot, tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';
import * as protocol from '../../server/rpc/protocol.js';
import type { ClientSettings, Endpoint, GatewayStatus, PowerInfo, PowersPayload, PowerStateChange, ResolveResult } from '../../server/rpc/protocol.js';

const entry = path.join(repoRoot, 'out', 'server', 'extension-main.js');

interface Message {
  jsonrpc: '2.0';
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A JSON-RPC peer over the child's IPC channel, as vscode-jsonrpc's IPC transport does it. */
class IpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error & { code?: number }) => void }>();
  readonly notifications: Array<{ method: string; params: unknown }> = [];
  readonly stderr: string[] = [];

  constructor(readonly child: ChildProcess) {
    child.on('message', (message: Message) => {
      if (message.id !== undefined && message.method === undefined) {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) waiter?.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
        else waiter?.resolve(message.result);
      } else if (message.method && message.id !== undefined) {
        // A request from the server (window/showMessageRequest, ...): answer it.
        this.notifications.push({ method: message.method, params: message.params });
        child.send({ jsonrpc: '2.0', id: message.id, result: null });
      } else if (message.method) {
        this.notifications.push({ method: message.method, params: message.params });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
  }

  request<P, R>(type: protocol.RequestType<P, R> | { method: string }, params: P): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ jsonrpc: '2.0', id, method: type.method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.child.send({ jsonrpc: '2.0', method, params });
  }

  received<P>(type: protocol.NotificationType<P>): P[] {
    return this.notifications.filter((n) => n.method === type.method).map((n) => n.params as P);
  }

  last<P>(type: protocol.NotificationType<P>): P | undefined {
    return this.received(type).at(-1);
  }
}

const settings = (overrides: Partial<ClientSettings> = {}): ClientSettings => ({
  demoPowers: true,
  spellFolders: [],
  gateway: { imports: { vscode: false, claudeDesktop: false }, discovery: { enabled: false } },
  ...overrides,
});

let home: { dir: string; cleanup: () => void };
let peer: IpcPeer;

before(async () => {
  home = tempDir();
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  writeSpell(path.join(home.dir, 'extra'), 'unstable', unstableSpell());
  const child = fork(entry, ['--node-ipc', `--clientProcessId=${process.pid}`], { env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  peer = new IpcPeer(child);
  const init = await peer.request({ method: 'initialize' }, {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: { settings: settings({ spellFolders: [path.join(home.dir, 'extra')] }) },
  });
  // vscode-languageserver always answers textDocumentSync, with 0 (None) here: no document features.
  assert.deepEqual((init as { capabilities: unknown }).capabilities, { textDocumentSync: 0 });
  peer.notify('initialized', {});
});

after(async () => {
  const child = peer.child;
  if (child.exitCode === null) {
    await peer.request({ method: 'shutdown' }, null).catch(() => undefined);
    peer.notify('exit', null);
    await new Promise((resolve) => child.once('exit', resolve));
  }
  home.cleanup();
});

test('serves the MCP endpoint once ready: the token works over Streamable HTTP and the status says ready', async () => {
  const endpoint = await peer.request<null, Endpoint>(protocol.getEndpoint, null);
  assert.match(endpoint.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  assert.ok(endpoint.token.length >= 32);
  assert.equal(endpoint.version, 1);
  const { client } = await connectHttp(endpoint.url, endpoint.token);
  const tools = await client.listTools();
  assert.ok(tools.tools.some((tool) => tool.name === 'resolve_intent'));
  await client.close();
  await waitFor(() => peer.last(protocol.statusChanged)?.health === 'ready', 5000, 'a ready status notification');
  const status = await peer.request<null, GatewayStatus>(protocol.getStatus, null);
  assert.equal(status.health, 'ready');
  assert.equal(status.url, endpoint.url);
  assert.equal(status.powers, 4);
  assert.ok(!JSON.stringify(peer.notifications).includes(endpoint.token), 'the token is never pushed in a notification');
  assert.ok(!peer.stderr.join('').includes(endpoint.token), 'the token is never logged');
});

test('lists the demo powers and the extra spell folder with their source, state and tools', async () => {
  const payload = await peer.request<null, PowersPayload>(protocol.listPowers, null);
  const names = payload.powers.map((power) => power.name).sort();
  assert.deepEqual(names, ['everything', 'filesystem', 'memory', 'unstable']);
  const memory = payload.powers.find((power) => power.name === 'memory')!;
  assert.equal(memory.source.kind, 'demo');
  assert.ok(memory.source.file.endsWith('memory.spell.yaml'));
  assert.equal(memory.state, 'stopped');
  assert.equal(memory.active, false);
  assert.equal(payload.powers.find((power) => power.name === 'unstable')!.source.kind, 'spell');
});

test('resolve scores every power with its own band and gives the tier by the thresholds', async () => {
  const result = await peer.request<protocol.ResolveParams, ResolveResult>(protocol.resolveIntent, { query: 'remember facts in the knowledge graph' });
  assert.equal(result.scores.length, 4);
  assert.equal(result.scores[0].name, 'memory');
  assert.ok(['activated', 'multiple_matches'].includes(result.tier), result.tier);
  for (const score of result.scores) {
    assert.ok(score.confidence >= 0 && score.confidence <= 1);
    const t = result.thresholds;
    const expected = score.confidence >= t.activateThreshold ? 'activated' : score.confidence >= t.multipleThreshold ? 'multiple_matches' : score.confidence >= t.weakThreshold ? 'weak_matches' : 'not_found';
    assert.equal(score.band, expected);
  }
  await assert.rejects(peer.request(protocol.resolveIntent, { query: '  ' }), (error: Error & { code?: number }) => error.code === protocol.GATEWAY_ERROR && /empty/.test(error.message));
});

test('activate starts the power, pushes its state changes and the powers list; deactivate stops it', async () => {
  const before = peer.received(protocol.powerStateChanged).length;
  const info = await peer.request<protocol.PowerParams, PowerInfo>(protocol.activatePower, { name: 'memory' });
  assert.equal(info.active, true);
  assert.equal(info.state, 'active');
  assert.ok(info.tools.some((tool) => tool.name === 'search_nodes'));
  const states = peer.received<PowerStateChange>(protocol.powerStateChanged).slice(before).filter((c) => c.power === 'memory').map((c) => c.state);
  assert.deepEqual(states.slice(0, 2), ['starting', 'active']);
  await waitFor(() => peer.last(protocol.powersChanged)?.powers.find((p) => p.name === 'memory')?.active === true, 5000, 'a powers notification with memory active');
  await waitFor(() => peer.last(protocol.statusChanged)?.activePowers === 1, 5000, 'a status notification with one active power');

  const stopped = await peer.request<protocol.PowerParams, PowerInfo>(protocol.deactivatePower, { name: 'memory' });
  assert.equal(stopped.active, false);
  assert.equal(stopped.state, 'stopped');
  await waitFor(() => peer.last(protocol.statusChanged)?.activePowers === 0, 5000, 'a status notification with no active power');
});

test('a request the gateway refuses comes back as an error with the gateway code and a message', async () => {
  await assert.rejects(peer.request(protocol.activatePower, { name: 'nope' }), (error: Error & { code?: number }) => {
    assert.equal(error.code, protocol.GATEWAY_ERROR);
    assert.match(error.message, /nope/);
    return true;
  });
});

test('reload picks up a new spell file', async () => {
  writeSpell(path.join(home.dir, 'extra'), 'weather', `name: weather\nversion: 1.0.0\ndescription: Forecasts.\nkeywords: [weather, forecast, rain]\nserver:\n  command: ${JSON.stringify(process.execPath)}\n`);
  const payload = await peer.request<null, PowersPayload>(protocol.reloadPowers, null);
  assert.ok(payload.powers.some((power) => power.name === 'weather'));
});

test('changed thresholds apply without a restart; an out-of-range value is refused with a warning', async () => {
  const query = 'list the project folder';
  const before = await peer.request<protocol.ResolveParams, ResolveResult>(protocol.resolveIntent, { query });
  const top = before.scores[0].confidence;
  assert.ok(top > 0 && top < 1, `a query with a partial match to start from (got ${top})`);
  // Move the activate threshold across the top confidence, whichever side of it the default is on.
  const activateThreshold = before.tier === 'activated' ? (top + 1) / 2 : top / 2;
  const moved = { activateThreshold, multipleThreshold: Math.min(0.5, activateThreshold / 2), weakThreshold: Math.min(0.3, activateThreshold / 4) };
  peer.notify('workspace/didChangeConfiguration', { settings: settings({ spellFolders: [path.join(home.dir, 'extra')], gateway: { ...settings().gateway, resolve: moved } }) });
  const flipped = (tier: string) => (tier === 'activated') !== (before.tier === 'activated');
  await waitFor(async () => flipped((await peer.request<protocol.ResolveParams, ResolveResult>(protocol.resolveIntent, { query })).tier), 5000, 'the new thresholds');
  const endpoint = await peer.request<null, Endpoint>(protocol.getEndpoint, null);
  assert.equal(endpoint.version, 1, 'same endpoint: no restart');

  const shown = peer.notifications.length;
  const invalid = settings({ spellFolders: [path.join(home.dir, 'extra')], gateway: { ...settings().gateway, resolve: { activateThreshold: 5 } } });
  peer.notify('workspace/didChangeConfiguration', { settings: invalid });
  await waitFor(
    () => peer.notifications.slice(shown).some((n) => n.method.startsWith('window/showMessage') && /activateThreshold/.test(JSON.stringify(n.params))),
    5000,
    'a warning about the refused setting',
  );
  const after = await peer.request<protocol.ResolveParams, ResolveResult>(protocol.resolveIntent, { query });
  assert.equal(after.thresholds.activateThreshold, 0.85, 'the refused value falls back to the default');
  assert.equal(after.tier, before.tier);
});

test('a setting that changes the powers restarts the gateway on a new endpoint, keeping active powers active', async () => {
  await peer.request(protocol.activatePower, { name: 'unstable' });
  const before = await peer.request<null, Endpoint>(protocol.getEndpoint, null);
  peer.notify('workspace/didChangeConfiguration', { settings: settings({ demoPowers: false, spellFolders: [path.join(home.dir, 'extra')] }) });
  await waitFor(() => peer.received(protocol.statusChanged).some((s) => s.health === 'restarting'), 10_000, 'a restarting status');
  const after = await peer.request<null, Endpoint>(protocol.getEndpoint, null);
  assert.equal(after.version, before.version + 1);
  assert.notEqual(after.token, before.token);
  const payload = await peer.request<null, PowersPayload>(protocol.listPowers, null);
  assert.deepEqual(payload.powers.map((p) => p.name).sort(), ['unstable', 'weather']);
  await waitFor(async () => (await peer.request<null, PowersPayload>(protocol.listPowers, null)).powers.find((p) => p.name === 'unstable')?.active === true, 10_000, 'unstable active again');
});

test('shutdown and exit end the process and every power it started', async () => {
  const pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  const children = pids.filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(peer.child.pid);
    } catch {
      return false;
    }
  });
  assert.ok(children.length > 0, 'the active power runs as a child of the gateway');
  await peer.request({ method: 'shutdown' }, null);
  peer.notify('exit', null);
  await waitFor(() => peer.child.exitCode !== null, 10_000, 'the gateway process to exit');
  await waitFor(() => children.every((pid) => !isAlive(pid)), 10_000, 'the power processes to end');
});
