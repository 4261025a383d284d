import { latestEvents } from '../activity/event-log.js';
import type { RuntimeOptions } from '../runtime.js';
import type { CliArgs } from './args.js';
import { withStore } from './store-only.js';

/** The gateway's event log (power starts, stops, crashes), newest last; safe while a gateway runs. */
export function listEvents(args: CliArgs, options: RuntimeOptions): Promise<number> {
  return withStore(options, 'reads', async (store) => {
    const rows = await latestEvents(store, args.limit);
    if (args.json) {
      process.stdout.write(JSON.stringify({ events: rows }, null, 2) + '\n');
    } else {
      for (const row of rows) {
        process.stdout.write(
          `${new Date(row.at).toISOString()}  ${row.kind.padEnd(16)} ${(row.power ?? '').padEnd(20)} ${row.detail ?? ''}\n`,
        );
      }
    }
    return 0;
  });
}
