import { createRuntime, type RuntimeOptions } from '../runtime.js';
import type { CliArgs } from './args.js';

/** Ranks the powers for a query without starting any (tools known from the catalog are used). */
export async function resolveQuery(query: string, args: CliArgs, options: RuntimeOptions): Promise<number> {
  const runtime = await createRuntime(options);
  try {
    const started = performance.now();
    const outcome = await runtime.gateway.ports.resolve(query);
    const ms = Math.round((performance.now() - started) * 1000) / 1000;
    const ranked = outcome.ranked.map((score) => ({
      name: score.name,
      confidence: score.confidence,
      score: Math.round(score.score * 1000) / 1000,
      match_type: score.matchType,
      matched_terms: score.matchedTerms,
    }));
    if (args.json) {
      process.stdout.write(
        JSON.stringify(
          {
            query,
            status: outcome.tier,
            resolver: runtime.gateway.ports.resolverStatus(),
            candidates: outcome.candidates.map((c) => c.name),
            ranked,
            ms,
          },
          null,
          2,
        ) + '\n',
      );
    } else {
      process.stdout.write(
        `${outcome.tier}: ${outcome.candidates.map((c) => c.name).join(', ') || '(none)'}  (${ms} ms; ` +
          `${runtime.gateway.ports.resolverStatus().detail})\n`,
      );
      for (const row of ranked)
        process.stdout.write(
          `  ${row.confidence.toFixed(3)}  ${row.name.padEnd(20)} ${row.match_type.padEnd(12)} ${row.matched_terms.join(' ')}\n`,
        );
    }
    return 0;
  } finally {
    await runtime.close();
  }
}
