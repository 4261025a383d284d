import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { connectStdio, payload, textOf, waitFor } from '../helpers/gateway-process.js';
import {
  connectFixture,
  definitionsFile,
  filesUnder,
  fixtureHome,
  fixtureSpell,
  type FixtureHome,
} from '../helpers/fixture-gateway.js';
import { cliPath, writeSpell } from '../helpers/temp.js';

/**
 * Masking everywhere a child's words go: a real child says secrets in its log messages, its
 * progress messages, its error results and its stderr (a PEM key line by line, a URL with a
 * password), then crashes. None of them reaches the agent, the crash message, the log, the
 * events, the activity or any store file; the ordinary words around them stay.
 */
const URL_PASSWORD = 'pass-9f3e7c1a';
const KEY_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
const secrets = [
  'sk-live-4f9c2a7b1e8d3c6a9d0e',
  'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlMTIz',
  'hunter2-db',
  'plain-looking-value-77',
  'aws/secret/K7MDENG',
  URL_PASSWORD,
  KEY_BODY,
];
/** Eight forms a child's log line takes. */
const say = [
  `API_KEY=${secrets[0]} loaded`,
  `using token ${secrets[1]} for GitHub`,
  `Authorization: Bearer ${secrets[2]}`,
  { config: { password: secrets[3], host: 'db.internal' } },
  `service token is ${secrets[4]} (from the env)`,
  `export AWS_SECRET_ACCESS_KEY=${secrets[5]}`,
  `connecting to postgres://admin:${URL_PASSWORD}@db.internal:5432/app`,
  `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY}\n-----END OPENSSH PRIVATE KEY-----`,
];
const stderr = [
  'booting worker 3',
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  KEY_BODY,
  'QyNTUxOQAAACBhbW9yZS1rZXktbWF0ZXJpYWwtaGVyZQ',
  '-----END OPENSSH PRIVATE KEY-----',
  `FATAL: could not connect to postgres://admin:${URL_PASSWORD}@db.internal:5432/app`,
].join('\n');

let fixture: FixtureHome;
let defs: ReturnType<typeof definitionsFile>;
let session: Awaited<ReturnType<typeof connectStdio>>;
const seen: string[] = [];
const progress: string[] = [];

const define = (extra: Record<string, unknown>) =>
  defs.define({
    tools: ['speak', 'crash'].map((name) => ({
      name,
      description: `${name} aloud.`,
      inputSchema: { type: 'object', properties: {} },
    })),
    stderr,
    say,
    ...extra,
  });

before(async () => {
  fixture = fixtureHome(
    { upstream: { restart: { maxAttempts: 0, baseDelayMs: 100 } } },
    { env: { GRIMOIRE_LOG: 'debug' } },
  );
  defs = definitionsFile(fixture.home.dir);
  define({ fail: `query failed: postgres://admin:${URL_PASSWORD}@db.internal:5432/app refused the login` });
  const env = { SERVICE_TOKEN: secrets[4], MODE: 'talker' };
  writeSpell(
    fixture.spells,
    'talker',
    fixtureSpell('talker', 'defined-server', {
      description: 'A server that says its secrets.',
      keywords: ['speak', 'talk', 'secrets'],
      args: [defs.file],
      env,
    }),
  );
  session = await connectFixture(fixture);
  await session.client.setLoggingLevel('debug');
});

after(async () => {
  await session.client.close();
  fixture.home.cleanup();
});

test("a child's log lines, progress messages and error result reach the agent masked, their ordinary words kept", async () => {
  const activated = await session.client.callTool({ name: 'activate_power', arguments: { name: 'talker' } });
  assert.equal(payload(activated).status, 'activated', textOf(activated));
  const result = await session.client.callTool({ name: 'talker__speak', arguments: {} }, undefined, {
    onprogress: (p) => progress.push(String(p.message)),
  });
  seen.push(JSON.stringify(result));
  assert.equal(result.isError, true);
  assert.match(textOf(result), /query failed: postgres:\/\/admin:\*\*\*@db\.internal:5432\/app refused the login/);
  await waitFor(
    () => session.logMessages.filter((m) => m !== 'undefined').length >= say.length,
    10_000,
    'the log lines forwarded',
  );
  assert.equal(progress.length, say.length - 1, 'every string said came as progress');
  const logs = session.logMessages.join('\n');
  assert.match(logs, /postgres:\/\/admin:\*\*\*@db\.internal:5432\/app/);
  assert.match(logs, /API_KEY=\*\*\* loaded/);
  assert.match(logs, /\*\*\*private key\*\*\*/);
  assert.match(progress.join('\n'), /connecting to postgres:\/\/admin:\*\*\*@db\.internal/);
  const everything = [...seen, ...progress, logs].join('\n');
  for (const secret of secrets) assert.ok(!everything.includes(secret), `${secret} reached the agent`);
});

test(
  'a crash quoting stderr with a key and a URL password: masked in the crash message, the log, events, ' +
    'activity and the store',
  async () => {
    define({});
    const crashed = await session.client.callTool({ name: 'talker__crash', arguments: {} });
    seen.push(JSON.stringify(crashed));
    assert.equal(crashed.isError, true);
    await waitFor(
      () => session.logMessages.some((m) => /talker.*crashed/.test(m)),
      10_000,
      'the crash told to the session',
    );
    const told = session.logMessages.find((m) => /talker.*crashed/.test(m))!;
    assert.match(
      told,
      /postgres:\/\/admin:\*\*\*@db\.internal/,
      'the crash message quotes the last stderr line, masked',
    );

    const run = async (...args: string[]) =>
      (await promisify(execFile)(process.execPath, [cliPath, ...args], { env: fixture.env, encoding: 'utf8' })).stdout;
    const events = await run('events', '--json', '--limit', '200');
    const activity = await run('activity', 'list', '--json');
    assert.match(events, /power\.crashed/);
    assert.match(events, /postgres:\/\/admin:\*\*\*@/);
    assert.match(activity, /talker/);
    const log = session.stderr.join('');
    assert.match(log, /stderr: booting worker 3/, 'ordinary stderr lines are logged as they are');
    assert.match(log, /'talker'/, "the power's name is not masked although MODE: talker is an env value");
    const files = filesUnder(path.join(fixture.home.dir, 'data'));
    assert.ok(files.length > 0);
    const exits: Array<[string, string]> = [
      ['agent', [...seen, ...session.logMessages].join('\n')],
      ['events', events],
      ['activity', activity],
      ['log', log],
    ];
    for (const file of files) exits.push([path.relative(fixture.home.dir, file), fs.readFileSync(file, 'latin1')]);
    for (const [where, text] of exits)
      for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} in ${where}`);
  },
);
