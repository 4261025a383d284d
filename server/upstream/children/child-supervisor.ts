import { spawn, type ChildProcess } from 'node:child_process';
import { errorMessage, logger } from '../../log.js';
import { platformSpawn } from './platform-spawn.js';
import { signalGroup } from './process-group.js';

const log = logger('supervisor');
const isWindows = () => process.platform === 'win32';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Owns the process group of every stdio child of this gateway. Each child runs in its own group
 * (spawned detached, so its pid is the group id); one supervisor process per gateway holds the
 * list and ends every group when its pipe from the gateway closes (see supervisor-script.ts), so
 * no exit of the gateway, `kill -9` included, leaves a child or grandchild behind.
 */
export class ChildSupervisor {
  private process?: ChildProcess;
  private readonly groups = new Set<number>();
  private lastStart = 0;
  private broken = false;

  constructor(private readonly graceMs = 2000) {}

  /** Puts a just-started child (and all it will start) under the supervisor. */
  adopt(pid: number): void {
    this.groups.add(pid);
    if (this.process?.stdin?.writable) this.process.stdin.write(`+${pid}\n`);
    else this.start();
  }

  /**
   * Ends a child's whole group: SIGTERM, then SIGKILL for what is left after the grace period.
   * Returns at once when nothing of the group is left.
   */
  async end(pid: number, graceMs = this.graceMs, options: { leaderExited?: boolean } = {}): Promise<void> {
    if (isWindows()) {
      // A Windows pid is reused freely once its process is gone: only a live tree is ended.
      if (this.groups.has(pid) && !options.leaderExited)
        await new Promise((resolve) =>
          spawn('taskkill', ['/T', '/F', '/PID', String(pid)], { stdio: 'ignore', windowsHide: true })
            .on('close', resolve)
            .on('error', resolve),
        );
    } else if (signalGroup(pid, 'SIGTERM')) {
      const deadline = Date.now() + graceMs;
      while (Date.now() < deadline && signalGroup(pid, 0)) await sleep(50);
      if (signalGroup(pid, 'SIGKILL')) {
        // SIGKILL is not instant: wait (briefly) until the group is really gone.
        const killedBy = Date.now() + 1000;
        while (Date.now() < killedBy && signalGroup(pid, 0)) await sleep(20);
      }
    }
    this.release(pid);
  }

  private release(pid: number): void {
    if (!this.groups.delete(pid)) return;
    if (this.process?.stdin?.writable) this.process.stdin.write(`-${pid}\n`);
  }

  private start(): void {
    this.lastStart = Date.now();
    const { command, args, options } = platformSpawn(this.graceMs).supervisor;
    const child = spawn(command, args, options);
    this.process = child;
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    child.stdin?.on('error', () => undefined);
    child.on('error', (error) => {
      this.broken = true;
      log.error(`cannot start the child supervisor: ${errorMessage(error)}; children may outlive a killed gateway`);
    });
    child.on('exit', () => {
      if (this.process !== child || this.broken) return;
      this.process = undefined;
      if (this.groups.size === 0) return;
      log.warn('the child supervisor exited: starting a new one');
      // At most one start a second, should it keep dying.
      setTimeout(() => this.process ?? this.start(), Math.max(0, this.lastStart + 1000 - Date.now())).unref();
    });
    child.stdin?.write([...this.groups].map((pid) => `+${pid}\n`).join(''));
  }
}

/** The one supervisor of this gateway process. */
export const childSupervisor = new ChildSupervisor();
