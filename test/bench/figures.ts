import { readFileSync } from 'node:fs';

/** The middle value (the upper one of an even count), as the benchmarks report medians. */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** `x` to `digits` decimals. */
export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** utime + stime of a process in ms (Linux /proc, clock ticks at the usual 100 Hz); null without /proc. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
