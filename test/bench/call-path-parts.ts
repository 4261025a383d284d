/**
 * Two parts of the gateway's call path, each beside what it replaced, in one process:
 * - pipe writes: six small JSON lines a turn to a child's stdin, joined into one write
 *   (`writeJsonLine`) against a corked stream's writev of them (the way before);
 * - an activity id (`activityId`) against the time prefix plus a `randomUUID()` tail.
 * Prints CPU µs per message / id, the median of BENCH_RUNS runs (default 5) of each, the
 * two ways alternating. Run: npm run build && node out/test/bench/call-path-parts.js
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { activityId } from '../../server/activity/activity-id.js';
import { writeJsonLine } from '../../server/util/coalesced-write.js';
import { median, round } from './figures.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LINES_A_TURN = 6;

/** CPU µs per unit of `work` (which does `units` of it), once its promise settles. */
async function cpuPer(units: number, work: () => Promise<void> | void): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / units;
}

async function turns(stream: Writable, count: number, write: (message: unknown) => void): Promise<void> {
  for (let turn = 0; turn < count; turn++) {
    for (let i = 0; i < LINES_A_TURN; i++)
      write({
        jsonrpc: '2.0',
        id: turn * LINES_A_TURN + i,
        result: { content: [{ type: 'text', text: `Echo: bench ${turn}` }] },
      });
    await new Promise((resolve) => setImmediate(resolve));
    if (stream.writableLength > 1 << 20) await new Promise((resolve) => stream.once('drain', resolve));
  }
}

function corked(stream: Writable): (message: unknown) => void {
  let open = false;
  return (message) => {
    if (!open) {
      open = true;
      stream.cork();
      process.nextTick(() => {
        open = false;
        stream.uncork();
      });
    }
    stream.write(JSON.stringify(message) + '\n');
  };
}

async function main(): Promise<void> {
  const child = spawn('sh', ['-c', 'cat > /dev/null'], { stdio: ['pipe', 'ignore', 'ignore'] });
  const stdin = child.stdin!;
  const figures: Record<string, number[]> = { joined: [], corked: [], activityId: [], randomUUID: [] };
  const prefix = '01a21c57-ebfd-7';
  for (let run = 0; run < RUNS; run++) {
    const count = 20_000;
    figures.joined!.push(
      await cpuPer(count * LINES_A_TURN, () => turns(stdin, count, (m) => void writeJsonLine(stdin, m))),
    );
    figures.corked!.push(await cpuPer(count * LINES_A_TURN, () => turns(stdin, count, corked(stdin))));
    figures.activityId!.push(
      await cpuPer(500_000, () => {
        for (let i = 0; i < 500_000; i++) activityId(Date.now());
      }),
    );
    figures.randomUUID!.push(
      await cpuPer(500_000, () => {
        for (let i = 0; i < 500_000; i++) void (prefix + randomUUID().slice(15));
      }),
    );
  }
  stdin.end();
  const out = Object.fromEntries(
    Object.entries(figures).map(([name, values]) => [
      name,
      { median_us: round(median(values)), runs_us: values.map((v) => round(v)) },
    ]),
  );
  console.log(JSON.stringify({ runs: RUNS, lines_a_turn: LINES_A_TURN, cpu_us_per_unit: out }, null, 2));
}

void main();
