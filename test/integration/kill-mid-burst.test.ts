/**
 * Two real gateways (`grimoire serve --http`) and the CLI on one data folder, calls bursting on
 * both, the CLI listing and rating meanwhile: one gateway killed with SIGKILL mid-burst. Every
 * acknowledged call has exactly one activity record (docs/features.md: a call's record is committed before
 * its answer); the killed one's unanswered calls at most one each. The three replicas on PostgreSQL
 * hold the same in postgres-replicas.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Store } from '../../server/store/store.js';
import { gatewayEnv, startHttpGateway, type HttpGatewayProcess } from '../helpers/gateway-process.js';
import { assertOneRecordPerAcknowledgedCall, connect, killMidBurst } from '../helpers/kill-burst.js';
import { cliPath, tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';

const run = promisify(execFile);
const temp = tempDir('grimoire-kill-burst-');
const home = path.join(temp.dir, 'home');
const data = path.join(temp.dir, 'data');
const env = gatewayEnv({ home, data });
const gateways: HttpGatewayProcess[] = [];

before(async () => {
  writeSpell(home, 'unstable', unstableSpell());
  gateways.push(await startHttpGateway(['--spells', home], env));
  gateways.push(await startHttpGateway(['--spells', home], env));
});

after(async () => {
  try {
    await Promise.all(gateways.map((g) => g.stop()));
  } finally {
    temp.cleanup();
  }
});

/** The CLI on the same folder meanwhile: lists the latest calls and rates one, until stopped. */
function cliLoop() {
  let stopped = false;
  let runs = 0;
  const done = (async () => {
    while (!stopped) {
      const { stdout } = await run(process.execPath, [cliPath, 'activity', 'list', '--json', '--limit', '5'], { env });
      const latest = (JSON.parse(stdout) as { activity: Array<{ id: string }> }).activity[0];
      if (latest) await run(process.execPath, [cliPath, 'activity', 'rate', latest.id, 'up'], { env });
      runs += 1;
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return runs;
    },
  };
}

test('two gateways and the CLI on one folder, one gateway killed with SIGKILL mid-burst: every acknowledged call has exactly one record', { timeout: 60_000 }, async () => {
  const sessions = [
    { ...(await connect(gateways[0]!)), killed: false },
    { ...(await connect(gateways[0]!)), killed: false },
    { ...(await connect(gateways[1]!)), killed: true },
    { ...(await connect(gateways[1]!)), killed: true },
  ];
  const cli = cliLoop();
  const results = await killMidBurst(sessions, 50, () => gateways[1]!.process.kill('SIGKILL'));
  const cliRuns = await cli.stop();
  await Promise.all(sessions.filter((s) => !s.killed).map((s) => s.client.close()));
  assert.ok(cliRuns >= 1, 'the CLI listed and rated during the burst');

  const store = await Store.open({ dataDir: data });
  try {
    const counts = new Map(store.query<{ session: string; n: number }>('SELECT session, count(*) AS n FROM activity GROUP BY session').map((r) => [r.session, r.n]));
    assertOneRecordPerAcknowledgedCall(sessions, results, (session) => counts.get(session) ?? 0);
  } finally {
    store.close();
  }
});
