import { Catalog } from '../catalog/catalog.js';
import { describePower } from '../gateway/power-documents.js';
import { formatIssue } from '../powers/issue-text.js';
import type { RuntimeOptions } from '../runtime.js';
import { loadRegistry, runtimeConfig } from '../runtime-parts.js';
import type { CliArgs } from './args.js';
import { withStore } from './store-only.js';

/** `grimoire powers list [--json]`: the configured powers, their tools as the catalog knows them, and any problems; starts none. */
export function listPowers(args: CliArgs, options: RuntimeOptions): Promise<number> {
  return withStore(options, (store) => {
    const config = runtimeConfig(options);
    const { powers, issues } = loadRegistry(options, config, 'debug').snapshot();
    const known = new Catalog(store);
    const catalog = known.all();
    const versions = known.protocolVersions();
    const rows = powers.map((power) => {
      const tools = catalog.get(power.name) ?? [];
      return {
        name: power.name,
        description: describePower(power, tools).description,
        source: power.source.kind,
        file: power.source.file,
        transport: power.server.transport,
        tools: tools.length,
        protocolVersion: versions.get(power.name) ?? null,
        era: eraOf(versions.get(power.name)),
        problems: power.problems,
      };
    });
    if (args.json) {
      process.stdout.write(JSON.stringify({ powers: rows, issues }, null, 2) + '\n');
    } else {
      for (const row of rows) {
        process.stdout.write(`${row.name.padEnd(20)} ${row.source.padEnd(14)} ${String(row.tools).padStart(3)} tools  ${row.era.padEnd(7)} ${row.description}\n`);
        for (const problem of row.problems) process.stdout.write(`${''.padEnd(20)} ! ${problem}\n`);
      }
      for (const issue of issues) process.stdout.write(`issue: ${formatIssue(issue)}\n`);
      if (rows.length === 0) process.stdout.write(`No powers configured. Add a *.spell.yaml to ${config.paths.home}, or try --demo.\n`);
    }
    return 0;
  });
}

/** 'modern' (2026-07-28 and later), 'legacy' (the 2025 and 2024 revisions), '?' before the server ever listed its tools. */
function eraOf(version: string | undefined): string {
  if (!version) return '?';
  return version >= '2026-07-28' ? 'modern' : 'legacy';
}
