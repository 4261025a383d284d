/**
 * Runs one stdio MCP server as a grandchild and ties its life to the gateway's: when the gateway
 * goes away (its end of our stdin closes, or we are re-parented), the server is stopped, even if
 * the gateway was killed with SIGKILL and could not clean up itself.
 *
 * Usage: node child-guard.js <command> [args...]
 */
import { spawn } from 'node:child_process';

const GRACE_MS = 2000;
const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('grimoire child-guard: no command given\n');
  process.exit(2);
}

const originalParent = process.ppid;
const child = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'], env: process.env });
let stopping = false;

child.on('error', (error) => {
  process.stderr.write(`grimoire child-guard: cannot start '${command}': ${error.message}\n`);
  process.exit(127);
});

child.on('exit', (code, signal) => {
  if (!stopping) process.stderr.write(`grimoire child-guard: server exited (code ${code ?? 'none'}, signal ${signal ?? 'none'})\n`);
  process.exit(code ?? 1);
});

process.stdin.pipe(child.stdin);
child.stdin.on('error', () => undefined);
process.stdin.on('end', stop);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

const parentWatch = setInterval(() => {
  if (process.ppid !== originalParent) stop();
}, 1000);
parentWatch.unref();

function stop(): void {
  if (stopping) return;
  stopping = true;
  child.stdin.end();
  setTimeout(() => child.kill('SIGTERM'), GRACE_MS).unref();
  setTimeout(() => {
    child.kill('SIGKILL');
    process.exit(1);
  }, GRACE_MS * 2).unref();
}
