import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectHttp, gatewayEnv, startHttpGateway } from '../helpers/gateway-process.js';
import { cliPath, tempDir } from '../helpers/temp.js';

/**
 * Fair sessions on a real team gateway (HTTP, users' tokens from the real CLI): one client opening
 * sessions and pinging them all locks out neither the owner (the editor's token) nor another user;
 * when every place is taken and no client holds more than its share, the refusal names only the
 * caller's own sessions (never another user's name or count).
 */
test(
  'one client opening many sessions and pinging them locks out neither the owner nor another user',
  { timeout: 120_000 },
  async (t) => {
    const home = tempDir();
    fs.writeFileSync(
      path.join(home.dir, 'settings.json'),
      JSON.stringify({ sessions: { maxConcurrent: 6, maxPerClient: 3 } }),
    );
    const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
    const addUser = (name: string) =>
      (
        JSON.parse(
          execFileSync(process.execPath, [cliPath, 'users', 'add', name, '--json'], { env, encoding: 'utf8' }),
        ) as { token: string }
      ).token;
    const mallory = addUser('mallory');
    const bob = addUser('bob');
    const gateway = await startHttpGateway(['--no-imports'], env);
    const sessions: Array<Awaited<ReturnType<typeof connectHttp>>> = [];
    t.after(async () => {
      for (const session of sessions) {
        await (session.client.transport as StreamableHTTPClientTransport | undefined)
          ?.terminateSession()
          .catch(() => undefined);
        await session.client.close().catch(() => undefined);
      }
      await gateway.stop();
      home.cleanup();
    });
    const connect = async (token: string) => {
      const session = await connectHttp(gateway.url, token);
      sessions.push(session);
      return session;
    };
    const alive = async (session: Awaited<ReturnType<typeof connectHttp>>) =>
      session.client.ping().then(
        () => true,
        () => false,
      );

    // Mallory opens 12 sessions (twice the gateway's limit) and keeps pinging all of them.
    const hers: Array<Awaited<ReturnType<typeof connectHttp>>> = [];
    for (let i = 0; i < 12; i += 1) {
      hers.push(await connect(mallory));
      await Promise.all(hers.map(alive));
    }
    const living = (await Promise.all(hers.map(alive))).filter(Boolean).length;
    assert.equal(living, 3, 'she holds her share, sessions.maxPerClient, however many she opens');

    const owner = [await connect(gateway.token)];
    const bobs = [await connect(bob), await connect(bob)];
    assert.ok(await alive(owner[0]!), "the owner's (the editor's) session works");
    for (const session of bobs) assert.ok(await alive(session), "bob's sessions work");
    // Full now (mallory 3, owner 1, bob 2): the owner's second takes one of the client holding the most.
    owner.push(await connect(gateway.token));
    assert.equal(
      (await Promise.all(hers.map(alive))).filter(Boolean).length,
      2,
      'mallory, who held the most, gave one up',
    );
    for (const session of [...owner, ...bobs]) assert.ok(await alive(session));

    // Mallory 2, owner 2, bob 2: a new session for anyone would hold more than its share. Refused, naming only the caller's own sessions.
    const initialize = (token: string) =>
      fetch(gateway.url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
        }),
      });
    for (const token of [mallory, bob]) {
      const refused = await initialize(token);
      assert.equal(refused.status, 503);
      const message = ((await refused.json()) as { error: { message: string } }).error.message;
      assert.match(
        message,
        /already serves 6 MCP sessions, its limit for all clients together \(sessions\.maxConcurrent\)/,
      );
      assert.match(message, /\(you hold 2\)/);
      assert.doesNotMatch(message, /mallory|bob|owner/, 'no other client is named, not even the caller by name');
    }
    for (const session of [...owner, ...bobs]) assert.ok(await alive(session), 'the refusals closed nobody');
  },
);
