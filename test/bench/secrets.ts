/**
 * What masking secrets by meaning costs where text leaves the gateway: a log line, an error message
 * quoting a child's stderr, and a 4 KB activity row. Prints JSON. Run: npm run bench:secrets
 */
import { maskSecrets, registerSecretEntries } from '../../server/util/secrets.js';

registerSecretEntries({ GITHUB_TOKEN: 'ghp_benchbenchbenchbenchbenchbench1234', API_KEY: 'sk-bench-0123456789abcdef' });
const texts = {
  log_line: "2026-11-23T03:00:00.000Z info  [gateway] 'filesystem': 14 tool change(s) recorded in the catalog",
  stderr_error:
    "Power 'alpha' failed to start: API_KEY=sk-live-4f9c2a7b1e8d3c6a9d0e connecting to the backend. " +
    'Check its server command in /home/u/.grimoire/alpha.spell.yaml.',
  activity_row_4kb: JSON.stringify({
    args: { path: '/project/docs/handbook.md', content: 'The quick brown fox jumps over the lazy dog. '.repeat(90) },
    reason: 'read the handbook',
  }),
};
const N = 20_000;
const out: Record<string, unknown> = {};
for (const [name, text] of Object.entries(texts)) {
  const samples: number[] = [];
  for (let i = 0; i < N; i += 1) {
    const started = process.hrtime.bigint();
    maskSecrets(text);
    samples.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => Math.round(samples[Math.floor(q * (samples.length - 1))] * 100) / 100;
  out[name] = { chars: text.length, p50_us: at(0.5), p99_us: at(0.99) };
}
process.stdout.write(JSON.stringify({ calls_each: N, ...out }, null, 2) + '\n');
