/**
 * The gateway's CPU per message on its two stdio lines, in process (steadier than the end-to-end
 * bench on a loaded machine): the agent's side (BoundedStdioServerTransport behind
 * EarlyAnswersTransport, as `serve` builds it, reading tools/call requests, four to a chunk, and
 * writing an answer to each) and a power's side
 * (ChildProcessTransport to a minimal child that answers every request with an echo-sized result,
 * 20 in flight). CPU from process.cpuUsage: for a power's side it includes reading and writing the
 * pipes, not the child. Promise hooks are on, as in the gateway (its AsyncLocalStorage turns them
 * on for the process). Also the SDK's own part of a call on each side, over an in-memory pair
 * whose other end is a bare transport: an SDK Server answering tools/call (as every agent session
 * does) and an SDK Client's callTool, 20 in flight (as the gateway calls a power), on the SDK's v1
 * line and on its v2 line (the gateway's, in a 2025-11-25 session after initialize). Prints JSON:
 * µs per message per run and their median.
 * Run: npm run bench:wire   (BENCH_RUNS, BENCH_MESSAGES; BENCH_OUT=path to another build's out/
 * to measure its transports instead, e.g. main's).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolRequestSchema, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport as ServerMemoryV2, Server as ServerV2 } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Client as ClientV2, InMemoryTransport as ClientMemoryV2 } from '@modelcontextprotocol/client';
import { repoRoot } from '../helpers/temp.js';
import { median, round } from './figures.js';

type StdioModule = typeof import('../../server/gateway/sessions/stdio-transport.js');
type EarlyModule = typeof import('../../server/gateway/sessions/early-answers.js');
type ChildModule = typeof import('../../server/upstream/children/child-process-transport.js');
type ShapeModule = typeof import('../../server/util/json-rpc-shape.js');

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 40_000);
const out = path.resolve(process.env.BENCH_OUT ?? path.join(repoRoot, 'out'));
const load = <T>(file: string) => import(path.join(out, file)) as Promise<T>;

const request = (id: number) =>
  JSON.stringify({
    method: 'tools/call',
    params: { name: 'everything__echo', arguments: { message: `hello ${id}` } },
    jsonrpc: '2.0',
    id,
  });
const result = (id: number) => ({
  jsonrpc: '2.0' as const,
  id,
  result: { content: [{ type: 'text', text: `Echo: hello ${id}` }] },
});

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/** A sink like a socket: strings are not turned into Buffers on the way in. */
function sink(): Writable {
  return new Writable({
    decodeStrings: false,
    write: (_chunk, _encoding, done) => done(),
    writev: (_chunks, done) => done(),
  });
}

/** µs of CPU per message: requests read from the agent's side and answered. */
async function agentSide(module: StdioModule, early: EarlyModule): Promise<number> {
  const input = new PassThrough();
  const transport = new early.EarlyAnswersTransport(
    new module.BoundedStdioServerTransport(4 * 1024 * 1024, input, sink()),
    { tools: [], needed: () => undefined },
  );
  let received = 0;
  transport.onmessage = (message) => {
    received += 1;
    if ('id' in message && message.id !== undefined) void transport.send(result(message.id as number));
  };
  await transport.listen();
  await transport.start();
  const chunks = Array.from({ length: 64 }, (_, index) =>
    Buffer.from([0, 1, 2, 3].map((line) => request(index * 4 + line) + '\n').join('')),
  );
  const started = cpuMicros();
  for (let sent = 0; sent < MESSAGES;) {
    for (let chunk = 0; chunk < 5; chunk += 1, sent += 4) input.emit('data', chunks[(sent / 4) % chunks.length]);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const used = cpuMicros() - started;
  await transport.close();
  if (received !== MESSAGES) throw new Error(`received ${received} of ${MESSAGES}`);
  return used / MESSAGES;
}

const ANSWERING_CHILD = `
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (data) => {
  rest += data;
  let out = '';
  for (let nl = rest.indexOf('\\n'); nl >= 0; nl = rest.indexOf('\\n')) {
    const id = JSON.parse(rest.slice(0, nl)).id;
    rest = rest.slice(nl + 1);
    out += JSON.stringify({ result: { content: [{ type: 'text', text: 'Echo: hello ' + id }] }, jsonrpc: '2.0', id }) + '\\n';
  }
  process.stdout.write(out);
});`;

/** µs of CPU per call (request written, answer read) on a power's side, 20 in flight. */
async function powerSide(module: ChildModule): Promise<number> {
  const transport = new module.ChildProcessTransport(
    { command: process.execPath, args: ['-e', ANSWERING_CHILD], env: { PATH: process.env.PATH ?? '' } },
    { maxMessageBytes: 4 * 1024 * 1024 },
  );
  let answered = 0;
  let next = 0;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const ask = () => {
    const id = next++;
    void transport.send({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: `hello ${id}` } },
    });
  };
  transport.onmessage = (message: JSONRPCMessage) => {
    if (!('result' in message)) throw new Error(`unexpected ${JSON.stringify(message)}`);
    answered += 1;
    if (answered === MESSAGES) finished();
    else if (next < MESSAGES) ask();
  };
  await transport.start();
  const started = cpuMicros();
  for (let index = 0; index < 20; index += 1) ask();
  await done;
  const used = cpuMicros() - started;
  await transport.close();
  return used / MESSAGES;
}

/**
 * µs per message of the routing check: the SDK's schema against json-rpc-shape, on a request and a
 * result; and, for scale, the guards the SDK's Protocol itself runs on every message it gets (a
 * request: result?, error?, request?; a result: result? in the router and again where it is answered).
 */
function checks(shape: ShapeModule): Record<string, number> {
  const messages = { request: JSON.parse(request(7)), result: result(7) };
  const figures: Record<string, number> = {};
  for (const [name, message] of Object.entries(messages)) {
    for (const [how, check] of [
      ['zod', () => JSONRPCMessageSchema.safeParse(message).success],
      ['shape', () => shape.isJsonRpcMessage(message)],
      [
        'sdk_protocol_guards',
        name === 'request'
          ? () => !isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message) && isJSONRPCRequest(message)
          : () => isJSONRPCResultResponse(message) && isJSONRPCResultResponse(message),
      ],
    ] as const) {
      const started = process.hrtime.bigint();
      for (let index = 0; index < MESSAGES; index += 1) if (!check()) throw new Error(`${how} refused ${name}`);
      figures[`${name}_${how}_us`] = round(Number(process.hrtime.bigint() - started) / 1000 / MESSAGES, 2);
    }
  }
  return figures;
}

/** µs of CPU per tools/call request answered by an SDK Server over an in-memory pair. */
async function sdkServer(): Promise<number> {
  const server = new Server({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text' as const, text: `Echo: ${String(request.params.arguments?.message)}` }],
  }));
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  let answered = 0;
  client.onmessage = () => void (answered += 1);
  await client.start();
  await server.connect(serverSide);
  const started = cpuMicros();
  for (let sent = 0; sent < MESSAGES;) {
    for (let index = 0; index < 20; index += 1, sent += 1) {
      void client.send(JSON.parse(request(sent)) as JSONRPCMessage);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  while (answered < MESSAGES) await new Promise((resolve) => setImmediate(resolve));
  const used = cpuMicros() - started;
  await server.close();
  return used / MESSAGES;
}

/** µs of CPU per callTool of an SDK Client, answered at once by a bare transport (initialize included, before the count). */
async function sdkClient(): Promise<number> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = (message) => {
    const m = message as { id?: number; method?: string };
    if (m.id === undefined || m.method === undefined) return;
    const answer =
      m.method === 'initialize'
        ? {
            protocolVersion: LATEST_PROTOCOL_VERSION,
            capabilities: { tools: {} },
            serverInfo: { name: 'bare', version: '1.0.0' },
          }
        : { content: [{ type: 'text', text: `Echo: hello ${m.id}` }] };
    void serverSide.send({ jsonrpc: '2.0', id: m.id, result: answer } as JSONRPCMessage);
  };
  await serverSide.start();
  await client.connect(clientSide);
  const started = cpuMicros();
  for (let sent = 0; sent < MESSAGES; sent += 20) {
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        client.callTool({ name: 'echo', arguments: { message: `hello ${sent + index}` } }, undefined, {
          timeout: 60_000,
        }),
      ),
    );
  }
  const used = cpuMicros() - started;
  await client.close();
  return used / MESSAGES;
}

/** What the bench's client sends first on a 2025-11-25 session (the v2 Server serves that era after it). */
const initialize = {
  jsonrpc: '2.0' as const,
  id: -1,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'bench', version: '1.0.0' },
  },
};

function echoServerV2(): ServerV2 {
  const server = new ServerV2({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/call', async (request) => ({
    content: [{ type: 'text' as const, text: `Echo: ${String(request.params.arguments?.message)}` }],
  }));
  return server;
}

/**
 * The same as sdkServer with the SDK's v2 Server (the gateway's session Server), after initialize:
 * connected to the transport itself, or (`entry`) behind the SDK's stdio entry, which routes every
 * message of the connection to the Server it pinned for the era.
 */
async function sdkServerV2(entry = false): Promise<number> {
  const [client, serverSide] = ServerMemoryV2.createLinkedPair();
  let answered = 0;
  client.onmessage = () => void (answered += 1);
  await client.start();
  const server = entry ? serveStdio(() => echoServerV2(), { transport: serverSide }) : echoServerV2();
  if (!entry) await (server as ServerV2).connect(serverSide);
  await client.send(initialize);
  while (answered < 1) await new Promise((resolve) => setImmediate(resolve));
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  answered = 0;
  const started = cpuMicros();
  for (let sent = 0; sent < MESSAGES;) {
    for (let index = 0; index < 20; index += 1, sent += 1) {
      void client.send(JSON.parse(request(sent)) as Parameters<typeof client.send>[0]);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  while (answered < MESSAGES) await new Promise((resolve) => setImmediate(resolve));
  const used = cpuMicros() - started;
  await server.close();
  return used / MESSAGES;
}

/** The same as sdkClient with the SDK's v2 Client as the gateway makes it for a power (version negotiation 'auto', a 2025 server). */
async function sdkClientV2(): Promise<number> {
  const client = new ClientV2({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const [clientSide, serverSide] = ClientMemoryV2.createLinkedPair();
  serverSide.onmessage = (message) => {
    const m = message as { id?: number; method?: string };
    if (m.id === undefined || m.method === undefined) return;
    if (m.method !== 'initialize' && m.method !== 'tools/call') {
      void serverSide.send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
      return;
    }
    const answer =
      m.method === 'initialize'
        ? {
            protocolVersion: LATEST_PROTOCOL_VERSION,
            capabilities: { tools: {} },
            serverInfo: { name: 'bare', version: '1.0.0' },
          }
        : { content: [{ type: 'text', text: `Echo: hello ${m.id}` }] };
    void serverSide.send({ jsonrpc: '2.0', id: m.id, result: answer });
  };
  await serverSide.start();
  await client.connect(clientSide);
  const started = cpuMicros();
  for (let sent = 0; sent < MESSAGES; sent += 20) {
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        client.callTool({ name: 'echo', arguments: { message: `hello ${sent + index}` } }, { timeout: 60_000 }),
      ),
    );
  }
  const used = cpuMicros() - started;
  await client.close();
  return used / MESSAGES;
}

async function main(): Promise<void> {
  new AsyncLocalStorage<number>().run(0, () => undefined);
  // The session transports moved into sessions/ (an older build has them one folder up).
  const stdio = await load<StdioModule>('server/gateway/sessions/stdio-transport.js').catch(() =>
    load<StdioModule>('server/gateway/stdio-transport.js'),
  );
  const early = await load<EarlyModule>('server/gateway/sessions/early-answers.js').catch(() =>
    load<EarlyModule>('server/gateway/early-answers.js'),
  );
  const child = await load<ChildModule>('server/upstream/children/child-process-transport.js');
  const agent: number[] = [];
  const power: number[] = [];
  const sdk: number[] = [];
  const sdkClients: number[] = [];
  const sdkV2: number[] = [];
  const sdkEntryV2: number[] = [];
  const sdkClientsV2: number[] = [];
  await sdkServer();
  await sdkClient();
  await sdkServerV2();
  await sdkServerV2(true);
  await sdkClientV2();
  // One run unmeasured: the first runs are mostly the JIT warming up.
  await agentSide(stdio, early);
  await powerSide(child);
  for (let run = 0; run < RUNS; run += 1) {
    agent.push(round(await agentSide(stdio, early), 2));
    power.push(round(await powerSide(child), 2));
    sdk.push(round(await sdkServer(), 2));
    sdkClients.push(round(await sdkClient(), 2));
    sdkV2.push(round(await sdkServerV2(), 2));
    sdkEntryV2.push(round(await sdkServerV2(true), 2));
    sdkClientsV2.push(round(await sdkClientV2(), 2));
  }
  const shape = await load<ShapeModule>('server/util/json-rpc-shape.js').catch(() => undefined);
  process.stdout.write(
    JSON.stringify(
      {
        out,
        messages_per_run: MESSAGES,
        agent_side_cpu_us_per_message: { runs: agent, median: median(agent) },
        power_side_cpu_us_per_call: { runs: power, median: median(power) },
        sdk_server_cpu_us_per_call: { runs: sdk, median: median(sdk) },
        sdk_client_cpu_us_per_call: { runs: sdkClients, median: median(sdkClients) },
        sdk_v2_server_cpu_us_per_call: { runs: sdkV2, median: median(sdkV2) },
        sdk_v2_server_behind_stdio_entry_cpu_us_per_call: { runs: sdkEntryV2, median: median(sdkEntryV2) },
        sdk_v2_client_cpu_us_per_call: { runs: sdkClientsV2, median: median(sdkClientsV2) },
        ...(shape ? { routing_check: checks(shape) } : {}),
      },
      null,
      2,
    ) + '\n',
  );
}

void main();
