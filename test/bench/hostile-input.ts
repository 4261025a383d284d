/**
 * Figures for the hostile-input cases: a real stdio gateway with hostile spell files
 * next to nothing else; prints its start time, its RSS, and how long each hostile request takes
 * to be answered, as JSON. Run: `npx tsc -b && node out/test/bench/hostile-input.js`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/temp.js';

const spell = (name: string, description = 'A spare power.') =>
  `name: ${name}\nversion: 1.0.0\ndescription: ${JSON.stringify(description)}\nkeywords: [spare, unused, idle]\nserver:\n  command: node\n`;

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await work().catch(() => undefined);
  return Math.round(performance.now() - start);
}

async function main(): Promise<void> {
  const home = tempDir('grimoire-bench-hostile-');
  try {
    const file = (name: string) => path.join(home.dir, `${name}.spell.yaml`);
    fs.writeFileSync(file('spare'), spell('spare'));
    fs.writeFileSync(
      file('aliases'),
      `${spell('aliases')}  args: &w x\nhints:\n  t:\n    prerequisites:\n${'      - *w\n'.repeat(120)}`,
    );
    execFileSync('mkfifo', [file('fifo')]);
    fs.symlinkSync('/dev/zero', file('zero'));
    fs.writeFileSync(file('huge'), spell('huge', 'd'.repeat(10 * 1024 * 1024)));
    const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
    const started = performance.now();
    const { client, pid } = await connectStdio(['--no-imports'], env);
    const startMs = Math.round(performance.now() - started);
    const rssAtStart = rssMb(pid!);
    const request11Mb = await timed(() =>
      client.callTool({ name: 'resolve_intent', arguments: { query: 'x'.repeat(11 * 1024 * 1024) } }),
    );
    const nextRequest = await timed(() => client.listTools());
    const query1Mb = await timed(() =>
      client.callTool({ name: 'resolve_intent', arguments: { query: 'q'.repeat(1024 * 1024) } }),
    );
    const name100k = await timed(() =>
      client.callTool({ name: 'activate_power', arguments: { name: 'p'.repeat(100_000) } }),
    );
    const rssAfter = rssMb(pid!);
    await client.close();
    process.stdout.write(
      JSON.stringify(
        {
          start_with_hostile_files_ms: startMs,
          rss_mb: { at_start: Math.round(rssAtStart), after_requests: Math.round(rssAfter) },
          answer_ms: {
            request_11mb: request11Mb,
            next_request: nextRequest,
            query_1mb: query1Mb,
            power_name_100k: name100k,
          },
        },
        null,
        2,
      ) + '\n',
    );
  } finally {
    home.cleanup();
  }
}

void main();
