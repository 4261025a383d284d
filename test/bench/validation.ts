/**
 * What validating an intent-declared call costs: annotations resolved (server, spell or
 * inferred) and the matrix applied, per call. Prints JSON. Run: npm run bench:validation
 */
import { effectiveAnnotations } from '../../server/calls/annotations.js';
import { validateIntent } from '../../server/calls/intent-validation.js';
import type { OperationType } from '../../server/calls/intent.js';

const tools = [
  {
    name: 'delete_repository',
    description: 'Delete a repository',
    annotations: { destructiveHint: true, readOnlyHint: false },
  },
  { name: 'read_text_file', description: 'Read a file', annotations: { readOnlyHint: true } },
  {
    name: 'create_entities',
    description: 'Create entities',
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
  { name: 'purge_cache', description: 'Empties the cache' },
  { name: 'frobnicate', description: 'Twiddle the knobs' },
];
const variants: OperationType[] = ['read', 'write', 'destructive'];
const N = 200_000;
const samples: number[] = [];
let rejected = 0;
for (let i = 0; i < N; i += 1) {
  const tool = tools[i % tools.length];
  const variant = variants[i % variants.length];
  const started = process.hrtime.bigint();
  const annotations = effectiveAnnotations(tool, undefined, true);
  const result = validateIntent(variant, { operation_type: variant }, `p:${tool.name}`, annotations, true);
  samples.push(Number(process.hrtime.bigint() - started) / 1000);
  if (result.decision === 'rejected') rejected += 1;
}
samples.sort((a, b) => a - b);
const at = (q: number) => Math.round(samples[Math.floor(q * (samples.length - 1))] * 100) / 100;
process.stdout.write(
  JSON.stringify(
    {
      calls: N,
      rejected,
      p50_us: at(0.5),
      p99_us: at(0.99),
      max_us: at(1),
      mean_us: Math.round((samples.reduce((a, b) => a + b, 0) / N) * 100) / 100,
    },
    null,
    2,
  ) + '\n',
);
