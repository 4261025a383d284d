/**
 * A large single-line tool result through a real gateway (stdio) and a real child: how long the
 * big call takes to answer, how the calls made meanwhile to another power fare (one small call at
 * a time, the whole time: p50 / p99 / max), and the gateway's memory (VmRSS after, VmHWM: its peak).
 * Run: npm run bench:large-results   (sizes in MB as arguments; default 1 3 6 10; PROFILE_DIR=<dir>
 * writes a CPU profile of the gateway there)
 */
import * as fs from 'node:fs';
import { textOf } from '../helpers/gateway-process.js';
import { connectFixture, fixtureHome, fixtureSpell } from '../helpers/fixture-gateway.js';
import { writeSpell } from '../helpers/temp.js';

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const profile = process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : [];
const kinds = ['json', 'words'] as const;

function memoryOf(pid: number | undefined): { rss_mb: number; peak_mb: number } | undefined {
  if (!pid) return undefined;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss_mb: Math.round(kb('VmRSS') / 1024), peak_mb: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return undefined;
  }
}

const at = (sorted: number[], q: number) =>
  sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10 : 0;

async function main(): Promise<void> {
  const fixture = fixtureHome(
    { upstream: { maxResultMB: 12, callTimeoutMs: 300_000 } },
    { prefix: 'grimoire-bench-large-' },
  );
  writeSpell(
    fixture.spells,
    'hostile',
    fixtureSpell('hostile', 'hostile-server', {
      description: 'A server that answers with large results.',
      keywords: ['large', 'result', 'bench'],
    }),
  );
  // The calls made meanwhile go to another power: a child busy writing megabytes answers nothing else.
  writeSpell(
    fixture.spells,
    'calm',
    fixtureSpell('calm', 'hostile-server', {
      description: 'A server that answers small calls.',
      keywords: ['small', 'calm', 'bench'],
    }),
  );
  const session = await connectFixture(fixture, profile);
  const rows: unknown[] = [];
  try {
    for (const name of ['hostile', 'calm'])
      await session.client.callTool({ name: 'activate_power', arguments: { name } });
    await session.client.callTool({ name: 'calm__pid', arguments: {} });
    for (const mb of sizes.length ? sizes : [1, 3, 6, 10]) {
      for (const kind of kinds) {
        const others: number[] = [];
        let done = false;
        const started = performance.now();
        const big = session.client
          .callTool({ name: 'hostile__bigline', arguments: { mb, kind } }, undefined, { timeout: 300_000 })
          .then((result) => {
            done = true;
            return textOf(result);
          });
        while (!done) {
          const t = performance.now();
          await session.client.callTool({ name: 'calm__pid', arguments: {} });
          others.push(performance.now() - t);
        }
        const text = await big;
        const answered = performance.now() - started;
        others.sort((a, b) => a - b);
        rows.push({
          mb,
          kind,
          answer_ms: Math.round(answered),
          answer_chars: text.length,
          summarized: /artifact/i.test(text),
          other_calls: others.length,
          other_p50_ms: at(others, 0.5),
          other_p99_ms: at(others, 0.99),
          other_max_ms: at(others, 1),
          ...memoryOf(session.pid ?? undefined),
        });
        process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
      }
    }
  } finally {
    await session.client.close();
    fixture.home.cleanup();
  }
  process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
}

void main();
