import { Catalog } from '../catalog/catalog.js';
import { HintEvents } from '../hints/hint-events.js';
import { hintNetworkReport } from '../hints/hint-network-report.js';
import { LearnedTransitions } from '../hints/learned-transitions.js';
import type { RuntimeOptions } from '../runtime.js';
import { loadRegistry, runtimeConfig } from '../runtime-parts.js';
import type { CliArgs } from './args.js';
import { withStore } from './store-only.js';

/** `grimoire hints [--json] [--power P]`: the hint network of the powers, follow rates, recent hints. */
export function hintsCommand(args: CliArgs, options: RuntimeOptions): Promise<number> {
  return withStore(options, 'reads', async (store) => {
    const config = runtimeConfig(options);
    const registry = loadRegistry(options, config, 'debug');
    const catalog = new Catalog(store).all();
    const names = args.power ? [args.power] : registry.snapshot().powers.map((p) => p.name);
    const powers = names.flatMap((name) =>
      registry.get(name)
        ? [{ name, tools: (catalog.get(name) ?? []).map((t) => t.name), extensions: registry.extensions(name) }]
        : [],
    );
    const events = new HintEvents(store);
    const network = await hintNetworkReport(
      store,
      powers,
      { transitions: new LearnedTransitions(store, () => 0), events },
      config.settings.hints.minSupport,
    );
    const report = { network, followRates: await events.followRates(), recent: await events.recent(args.limit) };
    if (args.json) {
      process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    } else {
      for (const edge of report.network.edges) {
        process.stdout.write(
          `${edge.from.padEnd(36)} -> ${edge.to.padEnd(36)} ${edge.kind.padEnd(12)} ${edge.source.padEnd(8)} ` +
            `used ${edge.weight}` +
            `${edge.followRate === null ? '' : `, followed ${Math.round(edge.followRate * 100)}%`}\n`,
        );
      }
    }
    return 0;
  });
}
