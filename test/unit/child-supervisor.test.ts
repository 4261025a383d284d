import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { ChildSupervisor } from '../../server/upstream/children/child-supervisor.js';
import { POSIX_SUPERVISOR_SCRIPT } from '../../server/upstream/children/supervisor-script.js';
import { groupMembers, processTree } from '../helpers/process-tree.js';
import { waitFor } from '../helpers/gateway-process.js';
import { repoRoot } from '../helpers/temp.js';

const posixOnly = process.platform === 'win32' ? 'process groups are POSIX' : false;

/** A process group of two processes that both ignore SIGTERM. */
function stubbornGroup(): number {
  const child = spawn('/bin/sh', ['-c', 'trap "" TERM; sleep 30 & sleep 30'], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid!;
}

async function withGroups<T>(count: number, work: (groups: number[]) => Promise<T>): Promise<T> {
  const groups = Array.from({ length: count }, stubbornGroup);
  await waitFor(() => groups.every((g) => groupMembers(g).length >= 2), 5000, 'the groups to start');
  try {
    return await work(groups);
  } finally {
    for (const g of groups) {
      try {
        process.kill(-g, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

const supervisors: Array<[string, () => ChildProcess]> = [
  [
    'the /bin/sh supervisor',
    () =>
      spawn('/bin/sh', ['-c', POSIX_SUPERVISOR_SCRIPT, 'test-supervisor', '5'], {
        stdio: ['pipe', 'pipe', 'ignore'],
        detached: true,
      }),
  ],
  [
    'the Node supervisor (Windows)',
    () =>
      spawn(
        process.execPath,
        [path.join(repoRoot, 'out', 'server', 'upstream', 'children', 'child-supervisor-node.js'), '500'],
        { stdio: ['pipe', 'pipe', 'ignore'] },
      ),
  ],
];

for (const [name, start] of supervisors) {
  for (const ending of ['its pipe closes', 'it gets SIGTERM'] as const) {
    test(
      `${name}: when ${ending}, every group it holds ends, SIGTERM-proof ones too; released ones are left alone`,
      { skip: posixOnly },
      async () => {
        await withGroups(3, async ([held, alsoHeld, released]) => {
          const supervisor = start();
          await new Promise((resolve) => supervisor.stdout!.once('data', resolve));
          supervisor.stdin!.write(`+${held}\n+${released}\n+${alsoHeld}\n-${released}\n`);
          // The lines are read before the pipe's end; a signal needs them read first.
          if (ending === 'it gets SIGTERM') await new Promise((resolve) => setTimeout(resolve, 500));
          if (ending === 'its pipe closes') supervisor.stdin!.end();
          else supervisor.kill('SIGTERM');
          await waitFor(
            () => groupMembers(held).length === 0 && groupMembers(alsoHeld).length === 0,
            5000,
            'the held groups to end',
          );
          assert.ok(groupMembers(released).length >= 2, 'a released group is not touched');
          await waitFor(() => supervisor.exitCode !== null, 5000, 'the supervisor to exit');
        });
      },
    );
  }
}

test(
  'end(): SIGTERM to the whole group, SIGKILL after the grace period for what ignores it',
  { skip: posixOnly },
  async () => {
    await withGroups(1, async ([group]) => {
      const supervisor = new ChildSupervisor(300);
      supervisor.adopt(group);
      const started = Date.now();
      await supervisor.end(group);
      assert.equal(groupMembers(group).length, 0);
      assert.ok(Date.now() - started >= 250, 'it waited the grace period before SIGKILL');
    });
  },
);

test(
  'a supervisor killed with SIGKILL is replaced and handed the live groups; they still end when the gateway is killed',
  { skip: posixOnly },
  async () => {
    const supervisorModule = path.join(repoRoot, 'out', 'server', 'upstream', 'children', 'child-supervisor.js');
    const gateway = spawn(
      process.execPath,
      [
        '-e',
        `const { ChildSupervisor } = require(${JSON.stringify(supervisorModule)}); const { spawn } = require('node:child_process');
const group = spawn('/bin/sh', ['-c', 'trap "" TERM; sleep 30 & sleep 30'], { detached: true, stdio: 'ignore' });
new ChildSupervisor(300).adopt(group.pid); console.log(group.pid); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const group = Number(
      await new Promise<string>((resolve) =>
        gateway.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString())),
      ),
    );
    const supervisorOf = () =>
      processTree(gateway.pid!).find((p) => p.command.includes('grimoire-child-supervisor') && p.state !== 'Z');
    try {
      await waitFor(() => !!supervisorOf(), 5000, 'the supervisor');
      const first = supervisorOf()!.pid;
      process.kill(first, 'SIGKILL');
      await waitFor(() => (supervisorOf()?.pid ?? first) !== first, 5000, 'a new supervisor');
      assert.ok(groupMembers(group).length >= 2, 'the group lives on meanwhile');
      await new Promise((resolve) => setTimeout(resolve, 300));
      gateway.kill('SIGKILL');
      await waitFor(() => groupMembers(group).length === 0, 5000, 'the group to end with the gateway');
    } finally {
      gateway.kill('SIGKILL');
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  },
);
