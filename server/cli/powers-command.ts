import { eraOf } from '../../protocol/protocol-era.js';
import { Catalog } from '../catalog/catalog.js';
import {
  catalogListedTools,
  readCandidates,
  toolsViewOf,
  unconfirmed,
  type PowerToolsView,
} from '../catalog/read-candidates.js';
import type { Store } from '../store/store.js';
import { ReadConfirmations } from '../trust/read-confirmations.js';
import { catalogRarityOf, describePower } from '../gateway/power-documents.js';
import { formatIssue } from '../powers/issue-text.js';
import type { RuntimeOptions } from '../runtime.js';
import { loadRegistry, runtimeConfig } from '../runtime-parts.js';
import type { CliArgs } from './args.js';
import { withStore } from './store-only.js';
import { LaunchApprovals } from '../trust/launch-approvals.js';

/** `grimoire powers list [--json]`: the configured powers, their tools as the catalog knows them, and any problems; starts none. */
export function listPowers(args: CliArgs, options: RuntimeOptions): Promise<number> {
  return withStore(options, 'reads', (store) => {
    const config = runtimeConfig(options);
    const registry = loadRegistry(options, config, 'debug');
    const { powers, issues } = registry.snapshot();
    const known = new Catalog(store);
    const catalog = known.all();
    const versions = known.protocolVersions();
    const rarity = catalogRarityOf(powers, (name) => catalog.get(name) ?? []);
    const launches = new LaunchApprovals(store, { workspaceSpells: config.paths.workspaceSpells });
    const rows = powers.map((power) => {
      const tools = catalog.get(power.name) ?? [];
      return {
        name: power.name,
        description: describePower(power, tools, rarity).description,
        source: power.source.kind,
        file: power.source.file,
        transport: power.server.transport,
        tools: tools.length,
        protocolVersion: versions.get(power.name) ?? null,
        era: eraOf(versions.get(power.name)),
        problems: power.problems,
        ...(launches.waiting(power) ? { awaitingLaunch: launches.waiting(power) } : {}),
      };
    });
    if (args.json) {
      process.stdout.write(JSON.stringify({ powers: rows, issues }, null, 2) + '\n');
    } else {
      for (const row of rows) {
        process.stdout.write(
          `${row.name.padEnd(20)} ${row.source.padEnd(14)} ${String(row.tools).padStart(3)} tools  ` +
            `${row.era.padEnd(7)} ${row.description}\n`,
        );
        for (const problem of row.problems) process.stdout.write(`${''.padEnd(20)} ! ${problem}\n`);
        if (row.awaitingLaunch)
          process.stdout.write(
            `${''.padEnd(20)} ? waiting for approval to run: ${row.awaitingLaunch.command} (grimoire powers approve ${row.name})\n`,
          );
      }
      for (const issue of issues) process.stdout.write(`issue: ${formatIssue(issue)}\n`);
      if (rows.length === 0)
        process.stdout.write(`No powers configured. Add a *.spell.yaml to ${config.paths.home}, or try --demo.\n`);
      const listed = catalogListedTools(registry, catalog);
      const waiting = awaitingReads(
        store,
        powers.map((power) => toolsViewOf(listed, power.name)),
      );
      if (waiting > 0)
        process.stdout.write(
          `${waiting} listed tool${waiting === 1 ? ' looks like a read but does' : 's look like reads but do'} ` +
            `not declare it: review them once with 'grimoire tools reads'.\n`,
        );
    }
    launches.close();
    return 0;
  });
}

/** How many listed tools look like reads that no annotation declares and the user has not confirmed. */
function awaitingReads(store: Store, powers: PowerToolsView[]): number {
  const reads = new ReadConfirmations(store);
  try {
    return unconfirmed(readCandidates(powers, reads)).length;
  } finally {
    reads.close();
  }
}
