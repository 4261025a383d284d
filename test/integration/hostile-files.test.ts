/**
 * Hostile files and requests against real gateway processes (stdio and HTTP) next to a good
 * power (the real server-memory): each case changes nothing but itself. For every case: the good
 * power still resolves and answers, the message says what and where, the gateway's memory stays
 * under RSS_BOUND_MB, and nothing waits longer than its test's timeout. The timeouts are bounds
 * for a loaded CI machine: the whole file takes about 11 s of CPU (user time, `time node --test ...`).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  connectHttp,
  connectStdio,
  gatewayEnv,
  isAlive,
  payload,
  startHttpGateway,
  textOf,
  waitFor,
} from '../helpers/gateway-process.js';
import { cliPath, repoRoot, tempDir } from '../helpers/temp.js';

/** A gateway with a few powers idles near 120 MB here; /dev/zero read whole went past 3 GB. */
const RSS_BOUND_MB = 400;

const root = tempDir('grimoire-hostile-');
const home = root.dir;
const env = gatewayEnv({ home, data: path.join(home, 'data') });
after(root.cleanup);

const memorySpell = `name: memory
version: 1.0.0
description: A knowledge graph memory of entities, relations and observations.
keywords: [memory, knowledge, graph, entities, relations, remember]
server:
  command: ${JSON.stringify(process.execPath)}
  args: [${JSON.stringify(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js'))}]
  env:
    MEMORY_FILE_PATH: ${JSON.stringify(path.join(home, 'memory.jsonl'))}
hints:
  create_entities:
    prerequisites: [search_nodes]
`;

const plainSpell = (name: string, description = 'A spare power that is never started.') =>
  `name: ${name}\nversion: 1.0.0\ndescription: ${JSON.stringify(description)}\nkeywords: [spare, unused, idle]\nserver:\n  command: node\n`;

/** 120 uses of one anchor: harmless data, but past the alias limit. */
const aliasBomb = (name: string) =>
  `${plainSpell(name)}  args: &w x\nhints:\n  t:\n    prerequisites:\n${Array.from({ length: 120 }, () => '      - *w').join('\n')}\n`;

const spellFile = (name: string) => path.join(home, `${name}.spell.yaml`);

before(() => {
  fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ discovery: { enabled: false } }));
  fs.writeFileSync(spellFile('memory'), memorySpell);
  fs.writeFileSync(spellFile('spare'), plainSpell('spare'));
  fs.writeFileSync(spellFile('aliases'), aliasBomb('aliases'));
  execFileSync('mkfifo', [spellFile('fifo')]);
  fs.symlinkSync('/dev/zero', spellFile('zero'));
  fs.writeFileSync(spellFile('huge'), plainSpell('huge', 'd'.repeat(10 * 1024 * 1024)));
  fs.writeFileSync(spellFile('wordy'), plainSpell('wordy', 'w'.repeat(5000)));
});

/** What each hostile file at start must be reported as: file, line where there is one, message. */
const EXPECTED_AT_START: [string, RegExp][] = [
  [
    'aliases',
    /aliases\.spell\.yaml:11:\d+: YAML aliases expand to more than 100 values \(the first alias, \*w, is at line 11\)/,
  ],
  [
    'fifo',
    /fifo\.spell\.yaml: it is a named pipe \(FIFO\), not a regular file, and was not read\. Fix: replace it with a regular file/,
  ],
  ['zero', /zero\.spell\.yaml: it is a symbolic link to \/dev\/zero \(a character device\), not a regular file/],
  [
    'huge',
    /huge\.spell\.yaml: the file is 10\.0 MB; the limit is 256 KB, so it was not read\. Fix: .*limits\.fileBytes/,
  ],
  ['wordy', /wordy\.spell\.yaml:3:14 \(description\): description has 5,000 characters; the limit is 2000/],
];

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Every process below `pid`, by PID (Linux /proc). */
function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** The good power still answers: activated by name, its tool called through the gateway. */
async function goodPowerAnswers(client: Awaited<ReturnType<typeof connectStdio>>['client']): Promise<void> {
  const resolved = payload(
    await client.callTool({
      name: 'resolve_intent',
      arguments: { query: 'remember entities in my knowledge graph memory' },
    }),
  );
  const top = resolved.power?.name ?? resolved.matches?.[0]?.name;
  assert.equal(top, 'memory', `memory resolves first: ${JSON.stringify(resolved).slice(0, 300)}`);
  assert.equal(
    payload(await client.callTool({ name: 'activate_power', arguments: { name: 'memory' } })).status,
    'activated',
  );
  const graph = await client.callTool({ name: 'memory__read_graph', arguments: {} });
  assert.ok(!graph.isError, textOf(graph));
  assert.match(textOf(graph), /"entities"/);
}

test(
  'stdio: hostile spells at start and while serving, an 11 MB request, a 100k-char name, a 1 MB query',
  { timeout: 60_000 },
  async () => {
    const session = await connectStdio([], env);
    const { client, stderr } = session;
    const pid = session.pid!;
    const log = () => stderr.join('');
    try {
      await waitFor(
        () => EXPECTED_AT_START.every(([, pattern]) => pattern.test(log())),
        20_000,
        'every file at start reported in the log',
      );
      await goodPowerAnswers(client);

      // An 11 MB message: answered with an error of its own, and the session goes on.
      const big = client.callTool({ name: 'resolve_intent', arguments: { query: 'x'.repeat(11 * 1024 * 1024) } });
      await assert.rejects(big, (error: unknown) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, -32600);
        assert.match(
          error.message,
          /Request too large: the message is 11\.0 MB; the limit is 4\.0 MB \(setting limits\.requestBytes\)/,
        );
        return true;
      });
      assert.ok(
        (await client.listTools()).tools.some((tool) => tool.name === 'memory__read_graph'),
        'the next request is answered',
      );

      const name = 'p'.repeat(100_000);
      const unknown = await client.callTool({ name: 'activate_power', arguments: { name } });
      assert.equal(unknown.isError, true);
      assert.match(textOf(unknown), /Unknown power 'p{100}… \(100,000 characters\)'/);
      assert.ok(textOf(unknown).length < 1000, `a short answer, got ${textOf(unknown).length} characters`);
      const unknownTool = await client.callTool({ name: `x${name}`, arguments: {} });
      assert.ok(
        textOf(unknownTool).length < 1000 && /\(100,001 characters\)/.test(textOf(unknownTool)),
        'an unknown tool name is cut too',
      );

      const query = await client.callTool({ name: 'resolve_intent', arguments: { query: 'q'.repeat(1024 * 1024) } });
      assert.equal(query.isError, true);
      assert.match(textOf(query), /has 1,048,576 characters; the limit is 8,000 \(setting limits\.queryChars\)/);
      assert.ok(textOf(query).length < 1000, `a short answer, got ${textOf(query).length} characters`);

      // While serving: a FIFO appears, and a good spell is broken with an alias bomb.
      execFileSync('mkfifo', [spellFile('late')]);
      fs.writeFileSync(spellFile('spare'), aliasBomb('spare'));
      await waitFor(
        () =>
          /late\.spell\.yaml: it is a named pipe/.test(log()) &&
          /'spare' is unavailable until spare\.spell\.yaml is fixed/.test(log()),
        20_000,
        'both reported in the log',
      ).catch((error) => {
        throw new Error(`${error.message}; the log: ${log().slice(-3000)}`);
      });
      assert.match(log(), /spare\.spell\.yaml:11:\d+: YAML aliases expand to more than 100 values/);
      const graph = await client.callTool({ name: 'memory__read_graph', arguments: {} });
      assert.ok(!graph.isError, 'the good power still answers after the reload');
      fs.writeFileSync(path.join(home, 'fresh.spell.yaml'), plainSpell('fresh'));
      await waitFor(
        async () =>
          payload(await client.callTool({ name: 'activate_power', arguments: { name: 'nope' } })).known_powers.includes(
            'fresh',
          ),
        20_000,
        'a new good spell is still picked up',
      );

      const rss = rssMb(pid);
      assert.ok(rss < RSS_BOUND_MB, `gateway RSS ${rss.toFixed(0)} MB, bound ${RSS_BOUND_MB} MB`);
    } finally {
      fs.rmSync(spellFile('late'), { force: true });
      fs.rmSync(path.join(home, 'fresh.spell.yaml'), { force: true });
      fs.writeFileSync(spellFile('spare'), plainSpell('spare'));
      await client.close();
    }
  },
);

test(
  'stdio: malformed JSON gets -32700 and the session goes on; the end of stdin ends the gateway and its children',
  { timeout: 45_000 },
  async () => {
    const child = spawn(process.execPath, [cliPath, 'serve', '--stdio'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const answers = new Map<unknown, Record<string, any>>();
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line);
      answers.set(message.id, message);
    });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const send = (message: object) => child.stdin!.write(JSON.stringify(message) + '\n');
    try {
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      child.stdin!.write('{"jsonrpc": "2.0", "id": 2, "method": \n');
      send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'activate_power', arguments: { name: 'memory' } },
      });
      await waitFor(() => answers.has(null) && answers.has(3), 30_000, 'the parse error and the activation');
      assert.equal(answers.get(null)!.error.code, -32700);
      assert.match(answers.get(null)!.error.message, /^Parse error: the message is not valid JSON/);
      assert.equal(JSON.parse(answers.get(3)!.result.content[0].text).status, 'activated');
      const tree = descendants(child.pid!);
      assert.ok(tree.length >= 1, 'the memory server runs below the gateway');

      child.stdin!.end();
      const exit = await exited;
      assert.deepEqual(exit, { code: 0, signal: null }, 'the gateway exits by itself when its stdin ends');
      await waitFor(() => tree.every((pid) => !isAlive(pid)), 15_000, `its processes ${tree.join(', ')} to end`);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  },
);

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
  reusedSocket: boolean;
}

function post(
  url: string,
  token: string,
  agent: http.Agent,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: JSON.parse(json),
            reusedSocket: request.reusedSocket,
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

test(
  'HTTP: a body over the limit gets 413 and the same connection serves the next request; ' +
    'malformed JSON gets -32700 with or without a session',
  { timeout: 45_000 },
  async () => {
    const gateway = await startHttpGateway([], env);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const tooBig = await post(
        gateway.url,
        gateway.token,
        agent,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }),
      );
      assert.equal(tooBig.status, 413);
      assert.equal(tooBig.body.error.code, -32600);
      assert.match(
        tooBig.body.error.message,
        /Request too large: the body is 5\.0 MB; the limit is 4\.0 MB \(setting limits\.requestBytes\)/,
      );

      const init = await post(
        gateway.url,
        gateway.token,
        agent,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      );
      assert.equal(init.status, 200);
      assert.equal(init.reusedSocket, true, 'the request after the 413 went over the same connection');
      const sessionId = String(init.headers['mcp-session-id']);

      for (const headers of [{}, { 'mcp-session-id': sessionId }] as Record<string, string>[]) {
        const malformed = await post(
          gateway.url,
          gateway.token,
          agent,
          '{"jsonrpc": "2.0", "id": 2, "method": ',
          headers,
        );
        assert.equal(malformed.status, 400);
        assert.equal(malformed.body.error.code, -32700, `with headers ${JSON.stringify(headers)}`);
        assert.match(malformed.body.error.message, /^Parse error: the body is not valid JSON/);
      }
      const unknownSession = await post(gateway.url, gateway.token, agent, '{}', {
        'mcp-session-id': 's'.repeat(5000),
      });
      assert.equal(unknownSession.status, 404);
      assert.ok(unknownSession.body.error.message.length < 300, 'the session id is cut to a preview');

      const { client } = await connectHttp(gateway.url, gateway.token);
      await goodPowerAnswers(client as never);
      await client.close();
      const rss = rssMb(gateway.process.pid!);
      assert.ok(rss < RSS_BOUND_MB, `gateway RSS ${rss.toFixed(0)} MB, bound ${RSS_BOUND_MB} MB`);
    } finally {
      agent.destroy();
      await gateway.stop();
    }
  },
);

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [cliPath, ...args], { env, timeout: 75_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

test(
  'CLI: powers list reports every hostile file; call exits cleanly after a refusal or a hint, and --proceed runs it',
  { timeout: 90_000 },
  async () => {
    const entity = JSON.stringify({
      entities: [{ name: 'Hostile', entityType: 'test', observations: ['made by the CLI'] }],
    });
    const [list, refused, hinted, proceeded] = await Promise.all([
      cli(['powers', 'list', '--json']),
      cli(['call', 'tool-read', 'memory:create_entities', '--args', entity]),
      cli(['call', 'tool-write', 'memory:create_entities', '--args', entity]),
      cli(['call', 'tool-write', 'memory:create_entities', '--args', entity, '--proceed']),
    ]);

    assert.equal(list.code, 0, list.stderr);
    const listed = JSON.parse(list.stdout) as {
      powers: { name: string }[];
      issues: { file: string; line?: number; message: string; fix: string }[];
    };
    assert.deepEqual(listed.powers.map((p) => p.name).sort(), ['memory', 'spare']);
    for (const [name] of EXPECTED_AT_START) {
      const issue = listed.issues.find((i) => path.basename(i.file) === `${name}.spell.yaml`);
      assert.ok(issue && issue.message && issue.fix, `powers list reports ${name}.spell.yaml`);
    }

    for (const run of [refused, hinted, proceeded])
      assert.doesNotMatch(run.stderr, /store: closed|Error:| {4}at /, 'no crash after the answer');
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.stdout).code, 'intent_rejected');
    assert.equal(hinted.code, 1);
    assert.equal(JSON.parse(hinted.stdout).status, 'PREREQUISITE_SUGGESTED');
    assert.match(hinted.stderr, /nothing was run; .* add --proceed to run memory:create_entities anyway/);
    assert.equal(proceeded.code, 0, proceeded.stderr);
    assert.match(proceeded.stdout, /Hostile/);
  },
);
