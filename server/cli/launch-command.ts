import type { RuntimeOptions } from '../runtime.js';
import { loadRegistry, runtimeConfig } from '../runtime-parts.js';
import { LaunchApprovals } from '../trust/launch-approvals.js';
import { UsageError, type CliArgs } from './args.js';
import { withStore } from './store-only.js';

/**
 * `grimoire powers approve <name>`: the user lets a power from the workspace or an imported config
 * run, as its definition reads now in this environment (what `grimoire powers list` shows). A
 * running gateway on the same store sees the approval within a second.
 */
export function approveLaunchCommand(
  name: string | undefined,
  args: CliArgs,
  options: RuntimeOptions,
): Promise<number> {
  if (!name)
    throw new UsageError(
      "powers approve needs a power's name: grimoire powers approve <name> (grimoire powers list shows those waiting).",
    );
  return withStore(options, 'writes', (store) => {
    const config = runtimeConfig(options);
    const power = loadRegistry(options, config, 'debug').get(name);
    if (!power)
      throw new UsageError(
        `No power '${name}' is configured here${options.workspaceFolder ? '' : " (a workspace's power needs --workspace DIR)"}.`,
      );
    const launches = new LaunchApprovals(store, { workspaceSpells: config.paths.workspaceSpells });
    try {
      const approved = launches.approve(power);
      if (args.json) process.stdout.write(JSON.stringify({ power: name, approved: approved ?? null }) + '\n');
      else
        process.stdout.write(
          approved
            ? `approved: '${name}' may run ${approved.command}\n`
            : `'${name}' waits for no approval: its server may already run.\n`,
        );
      return 0;
    } finally {
      launches.close();
    }
  });
}
