import * as fs from 'node:fs';

/** One process as Linux /proc shows it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  rssKb: number;
  command: string;
}

export function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), state: fields[0], rssKb, command };
  } catch {
    return undefined;
  }
}

export function allProcesses(): ProcessInfo[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcess(Number(name)))
    .filter((p): p is ProcessInfo => !!p);
}

/** The process and every descendant, by parent pid. */
export function processTree(root: number): ProcessInfo[] {
  const all = allProcesses();
  const found = all.filter((p) => p.pid === root);
  for (let i = 0; i < found.length; i++) for (const p of all) if (p.ppid === found[i].pid) found.push(p);
  return found;
}

/** Running, not a zombie waiting to be reaped (a container's init may never reap it). */
export function isRunning(pid: number): boolean {
  const p = readProcess(pid);
  return !!p && p.state !== 'Z';
}

/** The running processes of a process group. */
export function groupMembers(pgid: number): ProcessInfo[] {
  return allProcesses().filter((p) => p.pgid === pgid && p.state !== 'Z');
}

/** The peak resident memory of a process, in MB (VmHWM). */
export function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
