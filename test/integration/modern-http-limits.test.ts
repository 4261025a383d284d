import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectHttp, gatewayEnv, startHttpGateway, type HttpGatewayProcess } from '../helpers/gateway-process.js';
import { cliPath, tempDir } from '../helpers/temp.js';

/**
 * A 2026-07-28 client's requests have no session of their own, but its user's state is one: it
 * takes a place under the fair-session limits like a 2025 client's session, and a user the full
 * gateway cannot make room for gets 503 with the limit's own message, not an internal error.
 */
let home: { dir: string; cleanup: () => void };
let gateway: HttpGatewayProcess;
let tokens: { mallory: string; bob: string };

before(async () => {
  home = tempDir();
  fs.writeFileSync(
    path.join(home.dir, 'settings.json'),
    JSON.stringify({ sessions: { maxConcurrent: 2, maxPerClient: 2 } }),
  );
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  const addUser = (name: string) =>
    (
      JSON.parse(
        execFileSync(process.execPath, [cliPath, 'users', 'add', name, '--json'], { env, encoding: 'utf8' }),
      ) as { token: string }
    ).token;
  tokens = { mallory: addUser('mallory'), bob: addUser('bob') };
  gateway = await startHttpGateway(['--no-imports'], env);
});

after(async () => {
  await gateway.stop();
  home.cleanup();
});

function listTools(token: string, url = gateway.url): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-method': 'tools/list',
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
}

test(
  'a modern user takes a place under the session limits; one the full gateway cannot seat gets 503 and ' +
    "the limit's message",
  async () => {
    const held = [await connectHttp(gateway.url, tokens.mallory), await connectHttp(gateway.url, tokens.mallory)];
    try {
      // The owner's modern requests: mallory holds both places and more than the owner would, so her oldest session makes room.
      const owner = await listTools(gateway.token);
      assert.equal(owner.status, 200, await owner.clone().text());
      assert.equal(((await owner.json()) as { result?: { resultType?: string } }).result?.resultType, 'complete');
      // Bob: the two places are held by one session each of mallory and the owner; no one holds more than bob would.
      const bob = await listTools(tokens.bob);
      assert.equal(bob.status, 503);
      assert.match(
        ((await bob.json()) as { error: { message: string } }).error.message,
        /sessions\.maxConcurrent|limit/,
      );
      // The owner's next modern request uses the place the owner already has.
      assert.equal((await listTools(gateway.token)).status, 200);
    } finally {
      await Promise.all(held.map((s) => s.client.close().catch(() => undefined)));
    }
  },
);

test(
  'a modern user idle past sessions.idleMinutes gives up its place: ' +
    "another user is seated, and the first one's next request must wait its turn",
  { timeout: 30_000 },
  async () => {
    const idle = tempDir();
    fs.writeFileSync(
      path.join(idle.dir, 'settings.json'),
      JSON.stringify({ sessions: { maxConcurrent: 1, maxPerClient: 1, idleMinutes: 0.02 } }),
    );
    const env = gatewayEnv({ home: idle.dir, data: path.join(idle.dir, 'data') });
    const add = (name: string) =>
      (
        JSON.parse(
          execFileSync(process.execPath, [cliPath, 'users', 'add', name, '--json'], { env, encoding: 'utf8' }),
        ) as { token: string }
      ).token;
    const [alice, bob] = [add('alice'), add('bob')];
    const small = await startHttpGateway(['--no-imports'], env);
    try {
      assert.equal((await listTools(alice, small.url)).status, 200);
      assert.equal((await listTools(bob, small.url)).status, 503, 'alice holds the only place');
      let seated = 503;
      for (let tries = 0; seated === 503 && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        seated = (await listTools(bob, small.url)).status;
      }
      assert.equal(seated, 200, "alice's place was freed once she was idle");
      assert.equal((await listTools(alice, small.url)).status, 503, 'bob holds the place now');
    } finally {
      await small.stop();
      idle.cleanup();
    }
  },
);
