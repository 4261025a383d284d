/**
 * The supervisor where there is no /bin/sh to run the POSIX one (Windows): same protocol as
 * supervisor-script.ts, one per gateway. On Windows a process tree is ended with `taskkill /T /F`
 * (Node has no Job Object API without a native addon); elsewhere it signals process groups.
 *
 * Usage: node child-supervisor-node.js <grace ms>; prints "ready" once its handlers are set.
 */
import { spawnSync } from 'node:child_process';
import * as readline from 'node:readline';
import { signalGroup } from './process-group.js';

const graceMs = Number(process.argv[2] ?? 2000);
const groups = new Set<number>();

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  if (process.platform === 'win32') {
    for (const pid of groups)
      spawnSync('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true });
    process.exit(0);
  }
  for (const pid of groups) signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  const poll = setInterval(() => {
    const left = [...groups].filter((pid) => signalGroup(pid, 0));
    if (left.length > 0 && Date.now() < deadline) return;
    for (const pid of left) signalGroup(pid, 'SIGKILL');
    clearInterval(poll);
    process.exit(0);
  }, 100);
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const pid = Number(line.slice(1));
  if (!Number.isInteger(pid) || pid <= 0) return;
  if (line.startsWith('+')) groups.add(pid);
  else if (line.startsWith('-')) groups.delete(pid);
});
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.on('SIGTERM', stop);
process.on('SIGHUP', stop);
process.on('SIGINT', () => undefined);
process.stdout.write('ready\n');
