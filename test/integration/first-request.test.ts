import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { approveLaunches, connectStdio, gatewayEnv, payload } from '../helpers/gateway-process.js';
import { cliPath, fixtureServer, repoRoot, tempDir } from '../helpers/temp.js';
import { execFileSync } from 'node:child_process';

/**
 * The first resolve_intent after an import, against real servers from npm (server-everything,
 * -memory, mcp-sqlite) and the defined-server answering tools/list late (a slow server): it waits
 * for the listing up to discovery.waitMs; past that it ranks what it has and says `partial`; the next
 * start ranks at once on the tool lists kept by launch definition, under any name.
 */
const nm = path.join(repoRoot, 'node_modules');
const weatherQuery = 'what will the weather be like in Paris tomorrow';
const weather = {
  name: 'get_weather',
  description: 'Get the weather forecast for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/**
 * Four real servers imported from a Claude config, their launches approved; the slow one (listing
 * its weather tool after `listDelayMs`) named `slowpoke`, until `importConfig` names it otherwise.
 */
function setup(listDelayMs: number, waitMs: number) {
  const home = tempDir();
  const config = path.join(home.dir, '.config');
  const defs = path.join(home.dir, 'defs.json');
  fs.writeFileSync(defs, JSON.stringify({ listDelayMs, tools: [weather] }));
  fs.writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify({ discovery: { waitMs } }));
  const servers = (slowName: string) => ({
    everything: {
      command: process.execPath,
      args: [path.join(nm, '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'stdio'],
    },
    memory: {
      command: process.execPath,
      args: [path.join(nm, '@modelcontextprotocol', 'server-memory', 'dist', 'index.js')],
      env: { MEMORY_FILE_PATH: path.join(home.dir, 'memory.json') },
    },
    sqlite: {
      command: process.execPath,
      args: [path.join(nm, 'mcp-sqlite', 'mcp-sqlite-server.js'), path.join(home.dir, 'db.sqlite')],
    },
    [slowName]: { command: process.execPath, args: [fixtureServer('defined-server'), defs] },
  });
  const importConfig = (slowName: string) => {
    fs.mkdirSync(path.join(config, 'Claude'), { recursive: true });
    fs.writeFileSync(
      path.join(config, 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({ mcpServers: servers(slowName) }),
    );
  };
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }, { XDG_CONFIG_HOME: config });
  importConfig('slowpoke');
  approveLaunches(env, ['everything', 'memory', 'sqlite', 'slowpoke']);
  return { home, env, importConfig };
}

const resolve = async (session: Awaited<ReturnType<typeof connectStdio>>, query: string) => {
  const started = performance.now();
  const answer = payload(await session.client.callTool({ name: 'resolve_intent', arguments: { query } }));
  return { answer, ms: performance.now() - started };
};

test(
  'the first request after an import, with a server slower than the wait: ranked on what is listed, and every such answer says partial',
  { timeout: 60_000 },
  async () => {
    const { home, env } = setup(8_000, 1_000);
    const session = await connectStdio([], env);
    try {
      const first = await resolve(session, weatherQuery);
      assert.match(String(first.answer.partial), /still listing: [^)]*slowpoke/, JSON.stringify(first.answer));
      assert.ok(first.ms < 6_000, `bounded by discovery.waitMs: ${Math.round(first.ms)} ms`);
      const second = await resolve(session, 'store a row in the sqlite table');
      assert.match(String(second.answer.partial), /slowpoke/, 'the next answer on the partial catalog says so too');
      for (const { answer } of [first, second])
        if (answer.status === 'not_found')
          assert.ok(answer.partial, 'never a bare not_found while a power is unlisted');
    } finally {
      await session.client.close();
      home.cleanup();
    }
  },
);

test(
  'the first request waits for a listing that ends within discovery.waitMs, ' +
    'and finds the tool it brings; the next start, under another name, ' +
    'ranks it on the list kept by launch definition without starting it',
  { timeout: 90_000 },
  async () => {
    const { home, env, importConfig } = setup(2_000, 10_000);
    let session = await connectStdio([], env);
    try {
      const first = await resolve(session, weatherQuery);
      assert.equal(first.answer.partial, undefined, JSON.stringify(first.answer));
      assert.ok(first.ms >= 1_500, `it waited for the listing: ${Math.round(first.ms)} ms`);
      assert.match(JSON.stringify(first.answer), /get_weather/);
    } finally {
      await session.client.close();
    }
    // The same server imported under another name: the list kept by its launch definition ranks it at once.
    importConfig('forecast-station');
    const listed = execFileSync(process.execPath, [cliPath, 'powers', 'list', '--json'], { env, encoding: 'utf8' });
    assert.ok((JSON.parse(listed).powers as Array<{ name: string }>).some((p) => p.name === 'forecast-station'));
    const ranked = JSON.parse(
      execFileSync(process.execPath, [cliPath, 'resolve', weatherQuery, '--json'], { env, encoding: 'utf8' }),
    );
    assert.equal(ranked.ranked[0]?.name, 'forecast-station', JSON.stringify(ranked));
    assert.ok(
      ranked.ranked[0].matched_terms.includes('weather'),
      'ranked on the tools its launch definition listed, under the other name',
    );
    session = await connectStdio([], env);
    try {
      const again = await resolve(session, weatherQuery);
      assert.equal(again.answer.partial, undefined, JSON.stringify(again.answer));
      assert.match(JSON.stringify(again.answer), /forecast-station/);
    } finally {
      await session.client.close();
      home.cleanup();
    }
  },
);
