import { createRuntime, type RuntimeOptions } from '../runtime.js';
import { describePower } from '../gateway/power-documents.js';
import { formatIssue } from '../powers/issue-text.js';
import type { CliArgs } from './args.js';

export async function listPowers(args: CliArgs, options: RuntimeOptions): Promise<number> {
  const runtime = await createRuntime(options);
  try {
    const { powers, issues } = runtime.registry.snapshot();
    const rows = powers.map((power) => {
      const tools = runtime.gateway.toolsOf(power.name);
      return {
        name: power.name,
        description: describePower(power, tools).description,
        source: power.source.kind,
        file: power.source.file,
        transport: power.server.transport,
        tools: tools.length,
        problems: power.problems,
      };
    });
    if (args.json) {
      process.stdout.write(JSON.stringify({ powers: rows, issues }, null, 2) + '\n');
    } else {
      for (const row of rows) {
        process.stdout.write(`${row.name.padEnd(20)} ${row.source.padEnd(14)} ${String(row.tools).padStart(3)} tools  ${row.description}\n`);
        for (const problem of row.problems) process.stdout.write(`${''.padEnd(20)} ! ${problem}\n`);
      }
      for (const issue of issues) process.stdout.write(`issue: ${formatIssue(issue)}\n`);
      if (rows.length === 0) process.stdout.write(`No powers configured. Add a *.spell.yaml to ${runtime.paths.home}, or try --demo.\n`);
    }
    return 0;
  } finally {
    await runtime.close();
  }
}
