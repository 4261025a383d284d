/**
 * Users added with the real CLI (`grimoire users add`) while team gateways run on PostgreSQL. A
 * replica learns of a new user from the change log, a moment after the CLI returns; a test that is
 * not about that moment waits until every gateway accepts the token.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { waitFor, type HttpGatewayProcess } from './gateway-process.js';
import { cliPath } from './temp.js';

const run = promisify(execFile);

export interface TeamCli {
  databaseUrl: string;
  env: NodeJS.ProcessEnv;
}

/** Adds a user through the CLI and returns the token it printed once. */
export async function addTeamUser(cli: TeamCli, name: string, admin = false): Promise<string> {
  const args = [cliPath, 'users', 'add', name, '--json', '--database', cli.databaseUrl, ...(admin ? ['--admin'] : [])];
  const { stdout } = await run(process.execPath, args, { env: cli.env });
  return (JSON.parse(stdout) as { token: string }).token;
}

/** Resolves once every gateway authenticates `token` (any answer but 401). */
export async function acceptedEverywhere(
  token: string,
  gateways: HttpGatewayProcess[],
  timeoutMs = 10_000,
): Promise<void> {
  const accepted = async (gateway: HttpGatewayProcess) =>
    (await fetch(new URL('/api/v1/tools/changes', gateway.url), { headers: { Authorization: `Bearer ${token}` } }))
      .status !== 401;
  await waitFor(
    async () => (await Promise.all(gateways.map(accepted))).every(Boolean),
    timeoutMs,
    'the new user known to every gateway',
  );
}
