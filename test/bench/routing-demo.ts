/**
 * Scripted requests against the three bundled demo powers (filesystem, memory, everything), with
 * their real tool lists (discovered by starting each demo server once), through the gateway's
 * resolution as `resolve_intent` runs it. Prints each request's tier and candidates as JSON.
 * Run: npm run build && node out/test/bench/routing-demo.js
 */
import * as path from 'node:path';
import { createRuntime } from '../../server/runtime.js';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/temp.js';

const REQUESTS = [
  'remember that Ada Lovelace wrote the first program',
  'read a file from my project',
  'list the files in the docs folder',
  'run the echo test',
  'add two numbers',
  'search my notes for the release date',
  'show environment variables of the server',
  'book a flight to Lisbon',
];

async function main(): Promise<void> {
  const home = tempDir();
  const runtime = await createRuntime({
    env: gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    demo: true,
    imports: false,
  });
  try {
    runtime.gateway.ports.discoverUnknownPowers();
    await runtime.parts.discovery.idle();
    const answers = [];
    for (const query of REQUESTS) {
      const outcome = await runtime.gateway.ports.resolve(query);
      answers.push({
        query,
        tier: outcome.tier,
        candidates: outcome.candidates.map((c) => ({ name: c.name, confidence: c.confidence })),
      });
    }
    const activated = answers.filter((a) => a.tier === 'activated').length;
    process.stdout.write(JSON.stringify({ activated, requests: answers.length, answers }, null, 2) + '\n');
  } finally {
    await runtime.close();
    home.cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exitCode = 1;
});
