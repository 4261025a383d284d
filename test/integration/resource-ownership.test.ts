import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, gatewayEnv, payload, startHttpGateway, textOf } from '../helpers/gateway-process.js';
import { fixtureServer, tempDir, writeSpell } from '../helpers/temp.js';

/**
 * Every resource read has an owner. A real `serve --http`, three sessions, and three powers of the
 * feature-probe server (which answers a read of ANY URI and logs it): `probe` (active in A and B),
 * `other` (active in B only) and `off` (disabled in settings). A session reads a URI only through a
 * power active in it that lists it, whose template matches it, or that linked to it in that
 * session's own result; `grimoire://power/...` is held to the same rule; nothing starts `off`.
 */
test(
  "resources/read: only what the session's own active powers listed, templated or linked for it",
  { timeout: 90_000 },
  async (t) => {
    const home = tempDir();
    t.after(() => home.cleanup());
    const spells = path.join(home.dir, 'spells');
    const logOf = (power: string) => path.join(home.dir, `${power}.jsonl`);
    for (const power of ['probe', 'other', 'off']) {
      writeSpell(
        spells,
        power,
        `name: ${power}\nversion: 1.0.0\ndescription: A server that answers any resource read.\nkeywords: ` +
          `[probe, resources, links]\nserver:\n  command: ${JSON.stringify(process.execPath)}\n  args: ` +
          `${JSON.stringify([fixtureServer('feature-probe-server'), logOf(power)])}\n`,
      );
    }
    fs.writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify({ powers: { disabled: ['off'] } }));
    const gateway = await startHttpGateway(
      ['--spells', spells, '--no-imports'],
      gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    );
    t.after(() => gateway.stop());
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => connectHttp(gateway.url, gateway.token)));
    t.after(async () => {
      for (const s of [a, b, c]) await s.client.close().catch(() => undefined);
    });
    const activate = async (client: Client, name: string) => {
      const result = await client.callTool({ name: 'activate_power', arguments: { name } });
      assert.equal(payload(result).status, 'activated', textOf(result));
    };
    await activate(a.client, 'probe');
    await activate(b.client, 'probe');
    await activate(b.client, 'other');
    const q = (power: string, uri: string) =>
      `grimoire://power/${encodeURIComponent(power)}/${encodeURIComponent(uri)}`;
    const refused = async (client: Client, uri: string, why: string) => {
      const error = await client.readResource({ uri }).then(
        (result) => assert.fail(`${why}: '${uri}' was answered: ${JSON.stringify(result)}`),
        (e: unknown) => e as { code?: number; message: string },
      );
      assert.equal(error.code, -32002, `${why}: ${error.message}`);
      assert.match(error.message, /not found|offered by/);
    };
    const textRead = (result: { contents: object[] }) =>
      String((result.contents[0] as { text?: unknown } | undefined)?.text);
    const reads = (power: string) =>
      fs.existsSync(logOf(power))
        ? fs
            .readFileSync(logOf(power), 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as { event: string; uri?: string })
        : [];

    await t.test('a session reads what its active power lists or templates', async () => {
      assert.equal(textRead(await a.client.readResource({ uri: 'probe://listed/one' })), 'read probe://listed/one');
      assert.equal(textRead(await a.client.readResource({ uri: 'probe://item/7' })), 'read probe://item/7');
      assert.equal(
        (await b.client.readResource({ uri: q('other', 'probe://listed/one') })).contents[0].uri,
        q('other', 'probe://listed/one'),
        "B reads other's copy qualified",
      );
    });

    await t.test('crafted reads are refused by the gateway, never answered by a child', async () => {
      const crafted: Array<[Client, string, string]> = [
        [a.client, 'file:///etc/passwd', 'a URI no power listed'],
        [a.client, q('probe', 'file:///etc/passwd'), 'the qualified form of a URI the power never listed'],
        [a.client, 'grimoire://power/probe/file:///etc/passwd', 'a raw, unencoded qualified form'],
        [
          a.client,
          `grimoire://power/probe/${encodeURIComponent('probe://listed/one')}/../../etc/passwd`,
          'raw .. after a listed URI',
        ],
        [a.client, 'grimoire://power/probe/..%2F..%2Fetc%2Fpasswd', 'encoded .. as the URI'],
        [a.client, 'probe://item/..', 'a template match that is a dot segment'],
        [a.client, 'probe://item/%2e%2e', 'a template match that is an encoded dot segment'],
        [a.client, 'probe://item/%252e%252e', 'a template match that is a twice-encoded dot segment'],
        [a.client, q('other', 'probe://listed/one'), 'a power only another session activated'],
        [a.client, q('off', 'probe://listed/one'), 'a disabled power'],
        [b.client, q('off', 'probe://item/1'), 'a disabled power, through a template'],
        [c.client, 'probe://listed/one', 'a session with nothing active'],
        [c.client, q('probe', 'probe://listed/one'), 'a session with nothing active, qualified'],
      ];
      for (const [client, uri, why] of crafted) await refused(client, uri, why);
      const answered = [...reads('probe'), ...reads('other')].filter((r) => r.event === 'read').map((r) => r.uri);
      for (const uri of answered) assert.match(uri!, /^probe:\/\/(listed\/one|item\/7)$/, `a child answered ${uri}`);
      assert.deepEqual(reads('off'), [], 'the disabled power was never started');
    });

    await t.test("a resource link in session B's result is readable by B only", async () => {
      const result = await b.client.callTool({ name: 'other__link', arguments: { uri: 'secret://b-only/notes' } });
      assert.ok(!result.isError, textOf(result));
      assert.equal(
        textRead(await b.client.readResource({ uri: 'secret://b-only/notes' })),
        'read secret://b-only/notes',
      );
      await refused(a.client, 'secret://b-only/notes', "A reads B's link");
      await refused(a.client, q('other', 'secret://b-only/notes'), "A reads B's link, qualified");
      await refused(a.client, q('probe', 'secret://b-only/notes'), "A reads B's link through its own power");
      await refused(c.client, 'secret://b-only/notes', "C reads B's link");
      // A link A's own call returned is A's to read.
      await a.client.callTool({ name: 'probe__link', arguments: { uri: 'secret://a-own/notes' } });
      assert.equal(textRead(await a.client.readResource({ uri: 'secret://a-own/notes' })), 'read secret://a-own/notes');
      await refused(b.client, 'secret://a-own/notes', "B reads A's link");
      const secretReads = [...reads('probe'), ...reads('other')]
        .filter((r) => r.event === 'read' && r.uri?.startsWith('secret://'))
        .map((r) => r.uri);
      assert.deepEqual(secretReads.sort(), ['secret://a-own/notes', 'secret://b-only/notes']);
    });
  },
);
