import type { RuntimeOptions } from '../runtime.js';
import { UserDirectory } from '../users/user-directory.js';
import { UsageError, type CliArgs } from './args.js';
import { withStore } from './store-only.js';

const USAGE = "use 'grimoire users add NAME [--admin]', 'grimoire users list' or 'grimoire users remove NAME'";

/** `grimoire users add NAME [--admin]` (prints the token once), `users list [--json]`, `users remove NAME`. */
export function usersCommand(
  sub: string | undefined,
  rest: string[],
  args: CliArgs,
  options: RuntimeOptions,
): Promise<number> {
  if (sub !== 'add' && sub !== 'list' && sub !== 'remove')
    throw new UsageError(`unknown subcommand 'users ${sub ?? ''}': ${USAGE}.`);
  if (sub !== 'list' && !rest[0]) throw new UsageError(`users ${sub} needs a NAME: ${USAGE}.`);
  return withStore(options, sub === 'list' ? 'reads' : 'writes', async (store) => {
    const users = new UserDirectory(store);
    if (sub === 'add') {
      const token = users.add(rest[0], args.admin ? 'admin' : 'member');
      await store.durable();
      if (args.json)
        process.stdout.write(JSON.stringify({ name: rest[0], role: args.admin ? 'admin' : 'member', token }) + '\n');
      else process.stdout.write(`${token}\n`);
      process.stderr.write(
        `user '${rest[0]}' added${args.admin ? ' (admin)' : ''}: the token above is shown only now; ` +
          `the user sends it as "Authorization: Bearer <token>".\n`,
      );
      return 0;
    }
    if (sub === 'remove') {
      if (!users.remove(rest[0])) {
        process.stderr.write(`no user '${rest[0]}'\n`);
        return 1;
      }
      await store.durable();
      process.stdout.write(`removed user '${rest[0]}': their token no longer works\n`);
      return 0;
    }
    const rows = users.list();
    if (args.json) process.stdout.write(JSON.stringify({ users: rows }, null, 2) + '\n');
    else
      for (const row of rows)
        process.stdout.write(
          `${row.name.padEnd(24)} ${row.role.padEnd(7)} added ${new Date(row.created_at).toISOString()}\n`,
        );
    return 0;
  });
}
