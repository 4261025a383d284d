import { createRuntime, type RuntimeOptions } from '../runtime.js';
import type { CliArgs } from './args.js';

/** `grimoire hints [--json] [--power P]`: the hint network of the powers, follow rates, recent hints. */
export async function hintsCommand(args: CliArgs, options: RuntimeOptions): Promise<number> {
  const runtime = await createRuntime({ ...options, imports: options.imports });
  try {
    const gateway = runtime.gateway;
    const powers = args.power ? [args.power] : gateway.powers().map((p) => p.name);
    const report = { network: gateway.hintNetwork(powers), follow_rates: gateway.hints.events.followRates(), recent: gateway.hints.events.recent(args.limit) };
    if (args.json) {
      process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    } else {
      for (const edge of report.network.edges) {
        process.stdout.write(`${edge.from.padEnd(36)} -> ${edge.to.padEnd(36)} ${edge.kind.padEnd(12)} ${edge.source.padEnd(8)} used ${edge.weight}${edge.followRate === null ? '' : `, followed ${Math.round(edge.followRate * 100)}%`}\n`);
      }
    }
    return 0;
  } finally {
    await runtime.close();
  }
}
