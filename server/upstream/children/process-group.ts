/** Signals a whole process group (POSIX); false when no process is left in it. Signal 0 only asks. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
