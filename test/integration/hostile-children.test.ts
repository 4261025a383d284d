import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, textOf, waitFor } from '../helpers/gateway-process.js';
import { groupMembers, isRunning, peakRssMb, processTree } from '../helpers/process-tree.js';
import { cliPath, fixtureServer, repoRoot, tempDir, writeSpell } from '../helpers/temp.js';

/**
 * Faulty children behind a real gateway process, next to a good power (server-memory): each case
 * changes nothing but itself, and no process of the gateway's tree outlives it (checked by pid and
 * by process group, on Linux's /proc).
 */

function hostileSpell(name: string, flags: string[] = [], env: Record<string, string> = {}): string {
  return `name: ${name}
version: 1.0.0
description: A test server that misbehaves on request (${name}).
keywords: [hostile, ${name}, misbehaving, test]
steering: Test guidance.
server:
  command: ${JSON.stringify(process.execPath)}
  args: ${JSON.stringify([fixtureServer('hostile-server'), ...flags])}
  env: ${JSON.stringify(env)}
`;
}

function memorySpell(dataDir: string): string {
  return `name: memory
version: 1.0.0
description: A persistent knowledge graph of entities and relations.
keywords: [memory, graph, entities, remember]
steering: Search before you create.
server:
  command: ${JSON.stringify(process.execPath)}
  args: [${JSON.stringify(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js'))}]
  env:
    MEMORY_FILE_PATH: ${JSON.stringify(path.join(dataDir, 'memory.jsonl'))}
`;
}

async function gateway(spells: Record<string, string>, settings: object = {}) {
  const home = tempDir();
  fs.writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify(settings));
  const dir = path.join(home.dir, 'spells');
  for (const [name, body] of Object.entries(spells)) writeSpell(dir, name, body);
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  const session = await connectStdio(['--spells', dir, '--no-imports'], env);
  const call = (name: string, args: Record<string, unknown> = {}) =>
    session.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  const activate = async (name: string) => payload(await call('activate_power', { name }));
  return { home, dir, env, session, call, activate };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

describe('hostile children', { concurrency: 6 }, () => {
  test('stderr floods, oversized answers and a child that dies at start change nothing but themselves', async () => {
    const home = tempDir();
    const launches = path.join(home.dir, 'launches.log');
    const g = await gateway({
      memory: memorySpell(home.dir),
      hostile: hostileSpell('hostile'),
      dying: hostileSpell('dying', ['--exit-at-start'], { LAUNCH_LOG: launches }),
    });
    try {
      assert.equal((await g.activate('memory')).status, 'activated');
      assert.equal((await g.activate('hostile')).status, 'activated');
      const good = await g.call('memory__create_entities', {
        entities: [{ name: 'Alice', entityType: 'person', observations: ['writes tests'] }],
      });
      assert.notEqual(good.isError, true, textOf(good));
      assert.equal(textOf(await g.call('hostile__remember', { text: 'state before the storm' })), 'ok');
      const { pid: hostilePid } = JSON.parse(textOf(await g.call('hostile__pid')));

      // 100 MB of stderr without a newline, while the good power keeps answering.
      const rssBefore = peakRssMb(g.session.pid!);
      let flooding = true;
      const goodCalls: number[] = [];
      const prober = (async () => {
        while (flooding) {
          const probe = await timed(() => g.call('memory__search_nodes', { query: 'Alice' }));
          assert.match(textOf(probe.value), /Alice/);
          goodCalls.push(probe.ms);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const flood = await timed(() => g.call('hostile__stderr_flood', { mb: 100 }));
      flooding = false;
      await prober;
      assert.equal(textOf(flood.value), 'wrote 100 MB to stderr');
      const peak = peakRssMb(g.session.pid!);
      console.log(
        `stderr flood: 100 MB in ${flood.ms} ms; gateway peak RSS ${rssBefore.toFixed(0)} -> ${peak.toFixed(0)} MB; ` +
          `good power's calls meanwhile: ${goodCalls.length}, slowest ${Math.max(...goodCalls)} ms`,
      );
      assert.ok(peak < rssBefore + 200, `the gateway's peak RSS grew from ${rssBefore} MB to ${peak} MB`);
      assert.ok(goodCalls.length > 0, 'the good power answered during the flood');

      // Answers over the limit (10 MB): that call fails with the size, the child lives on with its state.
      for (const mb of [12, 20]) {
        const big = await g.call('hostile__big', { mb });
        assert.equal(big.isError, true);
        assert.match(
          payload(big).error,
          new RegExp(
            `answered 'big' with a result too large \\(${mb} MB, limit 10 MB\\).*still running and keeps its state`,
          ),
        );
        assert.doesNotMatch(payload(big).error, /crashed/);
      }
      assert.equal(textOf(await g.call('hostile__recall')), 'state before the storm');
      assert.equal(JSON.parse(textOf(await g.call('hostile__pid'))).pid, hostilePid, 'the same process still serves');
      const underLimit = await g.call('hostile__big', { mb: 1 });
      assert.notEqual(
        underLimit.isError,
        true,
        `an answer under the limit still arrives: ${textOf(underLimit).slice(0, 300)}`,
      );

      // A child that exits right after start (discovery already tried it once the gateway started):
      // activations during the backoff fail fast and launch nothing.
      const launchCount = () => fs.readFileSync(launches, 'utf8').trim().split('\n').length;
      const launchesBefore = launchCount();
      const started = Date.now();
      const answers: string[] = [];
      while (Date.now() - started < 5000) {
        const answer = await g.activate('dying');
        answers.push(String(answer.error ?? answer.status));
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      const launchesAfter = launchCount();
      console.log(
        `exit at start: ${answers.length} activations in 5 s -> ${launchesAfter - launchesBefore} launches ` +
          `(${launchesAfter} since the gateway started)`,
      );
      assert.ok(
        answers.every((a) =>
          /Power 'dying' (failed to start: server exited \(code 4\): hostile: exiting at start|is down)/.test(a),
        ),
        answers.join('\n'),
      );
      assert.ok(
        answers.some((a) =>
          /is down \(failed to start: server exited \(code 4\).*can be started again in \d+ s \(attempt \d of 6\)/.test(
            a,
          ),
        ),
        answers.join('\n'),
      );
      // Backoff 1, 2, 4, 8 s: at most 3 launches fit in any 5 s, and at most 6 (the cap) in all.
      assert.ok(
        launchesAfter - launchesBefore <= 3 && launchesAfter <= 6,
        `${launchesAfter - launchesBefore} launches in 5 s, ${launchesAfter} in all`,
      );

      const after = await g.call('memory__search_nodes', { query: 'Alice' });
      assert.match(textOf(after), /writes tests/, 'the good power still answers with its data');
    } finally {
      await g.session.client.close();
      g.home.cleanup();
      home.cleanup();
    }
  });

  type ExitMode = 'stdin closed' | 'SIGTERM' | 'SIGINT' | 'SIGKILL';

  for (const mode of ['stdin closed', 'SIGTERM', 'SIGINT', 'SIGKILL'] as ExitMode[]) {
    test(`${mode}: a child ignoring SIGTERM and its grandchild end with their group`, async () => {
      const g = await gateway(
        { parent: hostileSpell('parent', ['--grandchild', '--ignore-sigterm']) },
        { discovery: { enabled: false } },
      );
      try {
        assert.equal((await g.activate('parent')).status, 'activated');
        const parent = JSON.parse(textOf(await g.call('parent__pid')));
        const gatewayPid = g.session.pid!;
        const tree = processTree(gatewayPid).filter((p) => p.pid !== gatewayPid);
        const pids = tree.map((p) => p.pid);
        assert.ok(pids.includes(parent.pid) && pids.includes(parent.grandchild), `tree: ${JSON.stringify(tree)}`);
        assert.equal(tree.find((p) => p.pid === parent.pid)?.pgid, parent.pid, 'the child leads a group of its own');
        assert.equal(
          tree.find((p) => p.pid === parent.grandchild)?.pgid,
          parent.pid,
          "the grandchild is in its parent's group",
        );
        assert.ok(groupMembers(parent.pid).length >= 2);

        if (mode === 'stdin closed') await g.session.client.close();
        else process.kill(gatewayPid, mode);
        // A child that ignores SIGTERM costs two grace periods (stdin closed, then SIGTERM) before SIGKILL: about 5 s idle,
        // several times that on a loaded machine (measured 11 s at load 15), so the bound is generous: it checks the exit, not its speed.
        await waitFor(() => !isRunning(gatewayPid), 90_000, 'the gateway to exit');
        await waitFor(
          () => pids.every((pid) => !isRunning(pid)) && groupMembers(parent.pid).length === 0,
          10_000,
          `every process of the tree to end (${pids})`,
        );
      } finally {
        await g.session.client.close().catch(() => undefined);
        g.home.cleanup();
      }
    });
  }

  test('a one-shot CLI call: its child and grandchild end with it', async () => {
    const home = tempDir();
    const pidLog = path.join(home.dir, 'pids.log');
    const dir = path.join(home.dir, 'spells');
    writeSpell(dir, 'parent', hostileSpell('parent', ['--grandchild', '--ignore-sigterm'], { PID_LOG: pidLog }));
    const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
    try {
      const output = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [cliPath, 'call', 'tool-read', 'parent:recall', '--spells', dir, '--no-imports', '--json'],
          { env },
          (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
        ),
      );
      assert.notEqual(JSON.parse(output).isError, true, output);
      const started = JSON.parse(fs.readFileSync(pidLog, 'utf8').trim()) as { pid: number; grandchild: number };
      assert.ok(started.pid > 0 && started.grandchild > 0);
      await waitFor(
        () => !isRunning(started.pid) && !isRunning(started.grandchild) && groupMembers(started.pid).length === 0,
        10_000,
        'the child and grandchild to end',
      );
    } finally {
      home.cleanup();
    }
  });
});
