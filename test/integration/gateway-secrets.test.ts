import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectHttp, gatewayEnv, startHttpGateway, textOf, waitFor } from '../helpers/gateway-process.js';
import { cliPath, repoRoot, tempDir, writeSpell } from '../helpers/temp.js';

const SPELLS_OWN_PASSWORD = 'spells-own-pg-password';
const memoryEntry = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

/**
 * A power's server that reads the environment of itself, of its parent (the gateway) and of the
 * gateway's child supervisor from /proc, writes what it read to `report`, then serves MCP.
 */
function proberScript(report: string): string {
  return (
    `import fs from 'node:fs';
const environ = (pid) => { try { return fs.readFileSync('/proc/' + pid + '/environ', 'latin1'); ` +
    `} catch (error) { return 'unreadable: ' + error.code; } };
const supervisorOf = (parent) => fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).find((pid) => {
  try {
    const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return ppid === parent && fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes('grimoire-child-supervisor');
  } catch { return false; }
});
const started = Date.now();
const look = () => {
  const supervisor = supervisorOf(process.ppid);
  if (!supervisor && Date.now() - started < 10000) return setTimeout(look, 50);
  fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify({ self: environ('self'), parent: ` +
    `environ(process.ppid), supervisor: supervisor ? environ(supervisor) : null }));
};
look();
await import(${JSON.stringify(memoryEntry)});
`
  );
}

function setup(dir: string) {
  const spells = path.join(dir, 'spells');
  const report = path.join(dir, 'report.json');
  const script = path.join(dir, 'prober.mjs');
  fs.writeFileSync(script, proberScript(report));
  // Its own PGPASSWORD, as a Postgres server's spell writes it: the spell's, not the gateway's.
  writeSpell(
    spells,
    'prober',
    `name: prober\nversion: 1.0.0\ndescription: Probes its environment.\nkeywords: ` +
      `[probe, environment, process]\nserver:\n  command: ${JSON.stringify(process.execPath)}\n  args: ` +
      `[${JSON.stringify(script)}]\n  env:\n    PGPASSWORD: ${SPELLS_OWN_PASSWORD}\n`,
  );
  writeSpell(
    spells,
    'leaky',
    `name: leaky\nversion: 1.0.0\ndescription: Asks for the admin token.\nkeywords: ` +
      `[leak, token, admin]\nserver:\n  command: ${JSON.stringify(process.execPath)}\n  args: ` +
      `[${JSON.stringify(script)}]\n  env:\n    LEAK: \${GRIMOIRE_ADMIN_TOKEN}\n`,
  );
  return { spells, report };
}

async function probe(url: string, token: string, report: string) {
  const session = await connectHttp(url, token);
  try {
    const activated = await session.client.callTool({ name: 'activate_power', arguments: { name: 'prober' } });
    assert.ok(!activated.isError, textOf(activated));
    await waitFor(() => fs.existsSync(report), 15_000, 'the prober to report');
    const leaky = await session.client.callTool({ name: 'activate_power', arguments: { name: 'leaky' } });
    return {
      read: JSON.parse(fs.readFileSync(report, 'utf8')) as { self: string; parent: string; supervisor: string | null },
      leaky: textOf(leaky),
    };
  } finally {
    await session.client.close();
  }
}

test(
  'no process the gateway starts inherits its credentials: ' +
    'the child and the supervisor read none in /proc; a value the spell writes itself is passed',
  { skip: process.platform !== 'linux' && 'reads /proc', timeout: 90_000 },
  async (t) => {
    const home = tempDir();
    t.after(() => home.cleanup());
    const { spells, report } = setup(home.dir);
    const adminToken = 'admin-token-' + 'a'.repeat(40);
    const pgPassword = 'pg-password-' + 'b'.repeat(20);
    const env = gatewayEnv(
      { home: home.dir, data: path.join(home.dir, 'data') },
      { GRIMOIRE_ADMIN_TOKEN: adminToken, PGPASSWORD: pgPassword },
    );
    const gateway = await startHttpGateway(['--spells', spells, '--no-imports'], env);
    t.after(() => gateway.stop());
    const { read, leaky } = await probe(gateway.url, gateway.token, report);
    assert.ok(read.self.includes('PATH='), 'the child read its own environment (the check below could fail)');
    assert.ok(read.supervisor?.includes('PATH='), `the child read the supervisor's environment: ${read.supervisor}`);
    for (const [where, text] of [
      ['the child', read.self],
      ['the supervisor', read.supervisor!],
    ] as const) {
      assert.ok(!text.includes(adminToken), `${where} holds the admin token`);
      assert.ok(!text.includes(pgPassword), `${where} holds PGPASSWORD`);
      assert.ok(!text.includes('GRIMOIRE_ADMIN_TOKEN'), where);
    }
    assert.ok(
      read.self.includes(`PGPASSWORD=${SPELLS_OWN_PASSWORD}\0`),
      'a PGPASSWORD the spell writes itself reaches its server',
    );
    assert.ok(!read.supervisor!.includes(SPELLS_OWN_PASSWORD), 'and no other process');
    assert.match(
      leaky,
      /GRIMOIRE_ADMIN_TOKEN/,
      'a spell asking for the admin token gets nothing: the variable is not set for it',
    );
    assert.ok(!leaky.includes(adminToken));
  },
);

test(
  "an admin token read from a 0600 file is in no environment, not even the gateway's own; a file others can read is refused",
  { skip: process.platform !== 'linux' && 'reads /proc', timeout: 90_000 },
  async (t) => {
    const home = tempDir();
    t.after(() => home.cleanup());
    const { spells, report } = setup(home.dir);
    const adminToken = 'file-token-' + 'c'.repeat(40);
    const file = path.join(home.dir, 'admin-token');
    fs.writeFileSync(file, adminToken + '\n', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
    const refused = spawnSync(
      process.execPath,
      [cliPath, 'serve', '--http', '--port', '0', '--no-imports', '--spells', spells, '--admin-token-file', file],
      { env, encoding: 'utf8', timeout: 20_000 },
    );
    assert.notEqual(refused.status, 0);
    assert.match(
      refused.stderr,
      /admin token file .*admin-token can be read or written by others \(mode 0644\).*chmod 600/,
    );

    fs.chmodSync(file, 0o600);
    const gateway = await startHttpGateway(['--spells', spells, '--no-imports', '--admin-token-file', file], env);
    t.after(() => gateway.stop());
    const launches = await fetch(new URL('/api/v1/powers/launches', gateway.url), {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    assert.equal(launches.status, 200, 'the token from the file is the admin token');
    const { read } = await probe(gateway.url, gateway.token, report);
    assert.ok(read.parent.includes('PATH='), "the child read the gateway's environment (the check below could fail)");
    for (const [where, text] of [
      ['the child', read.self],
      ['the gateway', read.parent],
      ['the supervisor', read.supervisor ?? ''],
    ] as const) {
      assert.ok(!text.includes(adminToken), `${where} holds the admin token`);
    }
  },
);
