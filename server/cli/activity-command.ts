import { ActivityLog } from '../activity/activity-log.js';
import { parseActivityFilter } from '../activity/activity-query.js';
import { shortId } from '../activity/activity-id.js';
import { idsMatching } from '../activity/activity-table.js';
import type { RuntimeOptions } from '../runtime.js';
import { UsageError, type CliArgs } from './args.js';
import { withStore } from './store-only.js';

/** `grimoire activity list [filters incl. --user NAME] [--json] [--limit N]` and `grimoire activity rate <id> up|down|clear`. */
export function activity(
  sub: string | undefined,
  rest: string[],
  args: CliArgs,
  options: RuntimeOptions,
): Promise<number> {
  return withStore(options, sub === 'list' ? 'reads' : 'writes', async (store) => {
    const log = new ActivityLog(store);
    if (sub === 'list') {
      const rows = await log.query({
        ...parseActivityFilter({
          intentType: args.intentType,
          status: args.status,
          power: args.power,
          tool: args.tool,
          user: args.user,
          since: args.since,
          until: args.until,
        }),
        limit: args.limit,
      });
      if (args.json) process.stdout.write(JSON.stringify({ activity: rows }, null, 2) + '\n');
      else
        for (const r of rows)
          process.stdout.write(
            `${new Date(r.at).toISOString()}  ${shortId(r.id)}  ${`${r.power}:${r.tool}`.padEnd(36)} ` +
              `${(r.operationType ?? r.variant).padEnd(11)} ${r.status.padEnd(8)} ` +
              `${String(r.latencyMs).padStart(6)} ms${r.rating ? `  rated ${r.rating > 0 ? 'up' : 'down'}` : ''}\n`,
          );
      return 0;
    }
    if (sub === 'rate') {
      const [part, verdict] = rest;
      const rating = verdict === 'up' ? 1 : verdict === 'down' ? -1 : verdict === 'clear' ? 0 : undefined;
      if (!part || rating === undefined) throw new UsageError('usage: grimoire activity rate <id> up|down|clear');
      const matches = await idsMatching(store, part);
      if (matches.length !== 1)
        throw new UsageError(
          `'${part}' matches ${matches.length} activity rows: give the id as 'grimoire activity list' shows it, or more of it.`,
        );
      await log.rate(matches[0], rating);
      process.stdout.write(`rated ${matches[0]} ${verdict}\n`);
      return 0;
    }
    throw new UsageError(
      `unknown subcommand 'activity ${sub ?? ''}': use 'grimoire activity list' or 'grimoire activity rate <id> up|down'.`,
    );
  });
}
