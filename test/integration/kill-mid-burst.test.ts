/**
 * A real gateway (`grimoire serve --http`) killed with SIGKILL mid-burst: on the database file, one
 * of two gateways with the CLI listing and rating meanwhile; on the sql.js store (one process per
 * data folder) its one gateway, the CLI refused meanwhile. Every acknowledged call has exactly one
 * activity record (docs/features.md: a call's record is committed before its answer); the killed
 * gateway's unanswered calls at most one each. The three replicas on PostgreSQL hold the same in
 * postgres-replicas.test.ts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { sqlJsEngine } from '../../server/store/sql-engine.js';
import { SqliteStore } from '../../server/store/sqlite-store.js';
import { SqljsStore, Store } from '../../server/store/store.js';
import { gatewayEnv, startHttpGateway, type HttpGatewayProcess } from '../helpers/gateway-process.js';
import {
  assertOneRecordPerAcknowledgedCall,
  connect,
  killMidBurst,
  type BurstResult,
  type BurstSession,
} from '../helpers/kill-burst.js';
import { cliPath, tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';

const run = promisify(execFile);
const temp = tempDir('grimoire-kill-burst-');
const home = path.join(temp.dir, 'home');

after(() => temp.cleanup());

/** The CLI on the same folder meanwhile: lists the latest calls and rates one, until stopped. */
function cliLoop(env: Record<string, string>) {
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

test(
  'two gateways and the CLI on one folder, one gateway killed with SIGKILL mid-burst: ' +
    'every acknowledged call has exactly one record (database file)',
  { timeout: 90_000 },
  async () => {
    const data = path.join(temp.dir, 'database-file');
    const env = gatewayEnv({ home, data });
    writeSpell(home, 'unstable', unstableSpell());
    const gateways: HttpGatewayProcess[] = [];
    try {
      gateways.push(await startHttpGateway(['--spells', home], env));
      gateways.push(await startHttpGateway(['--spells', home], env));
      const sessions = [
        { ...(await connect(gateways[0]!)), killed: false },
        { ...(await connect(gateways[0]!)), killed: false },
        { ...(await connect(gateways[1]!)), killed: true },
        { ...(await connect(gateways[1]!)), killed: true },
      ];
      const cli = cliLoop(env);
      const results = await killMidBurst(sessions, 50, () => gateways[1]!.process.kill('SIGKILL'));
      const cliRuns = await cli.stop();
      await Promise.all(sessions.filter((s) => !s.killed).map((s) => s.client.close()));
      assert.ok(cliRuns >= 1, 'the CLI listed and rated during the burst');
      const store = await Store.open({ dataDir: data });
      try {
        assert.ok(store instanceof SqliteStore, 'the format this run is about');
        assertRecords(store, sessions, results);
      } finally {
        store.close();
      }
    } finally {
      await Promise.all(gateways.map((g) => g.stop()));
    }
  },
);

test(
  'the one gateway on a sql.js folder killed with SIGKILL mid-burst, the CLI refused meanwhile: ' +
    'every acknowledged call has exactly one record',
  { timeout: 90_000 },
  async () => {
    const data = path.join(temp.dir, 'sql-js-store');
    const env = gatewayEnv({ home, data }, { GRIMOIRE_STORE_ENGINE: 'sql.js' });
    writeSpell(home, 'unstable', unstableSpell());
    const gateway = await startHttpGateway(['--spells', home], env);
    try {
      const sessions = [
        { ...(await connect(gateway)), killed: true },
        { ...(await connect(gateway)), killed: true },
      ];
      const refused = run(process.execPath, [cliPath, 'activity', 'list', '--json'], { env });
      await assert.rejects(refused, (error: { stderr: string }) =>
        error.stderr.includes(`store: process ${gateway.process.pid} has this data folder open on sql.js`),
      );
      const results = await killMidBurst(sessions, 100, () => gateway.process.kill('SIGKILL'));
      const store = await Store.open({ dataDir: data, engine: await sqlJsEngine() });
      try {
        assert.ok(store instanceof SqljsStore, 'the format this run is about');
        assertRecords(store, sessions, results);
      } finally {
        store.close();
      }
    } finally {
      await gateway.stop();
    }
  },
);

function assertRecords(store: Store, sessions: BurstSession[], results: BurstResult[]): void {
  const counts = new Map(
    store
      .query<{ session: string; n: number }>('SELECT session, count(*) AS n FROM activity GROUP BY session')
      .map((r) => [r.session, r.n]),
  );
  assertOneRecordPerAcknowledgedCall(sessions, results, (session) => counts.get(session) ?? 0);
}
