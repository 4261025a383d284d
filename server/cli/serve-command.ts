import { randomBytes } from 'node:crypto';
import { planBind } from '../gateway/http-bind.js';
import { serveHttp } from '../gateway/http-server.js';
import { BoundedStdioServerTransport } from '../gateway/stdio-transport.js';
import { createMcpSession } from '../gateway/mcp-session.js';
import { serveUnavailable, type UnavailableServer } from '../gateway/unavailable-server.js';
import { databaseUrl } from '../store/open-store.js';
import { UserDirectory } from '../users/user-directory.js';
import { createRuntime, type RuntimeOptions } from '../runtime.js';
import { errorMessage, logger } from '../log.js';
import { UsageError, type CliArgs } from './args.js';

const log = logger('serve');

/** Runs the gateway until the client goes away or a signal arrives; every child is stopped on the way out. */
export async function serve(args: CliArgs, options: RuntimeOptions): Promise<number> {
  if (args.stdio === args.http) throw new UsageError('serve needs exactly one of --stdio or --http.');
  let bind;
  try {
    bind = planBind(args);
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  const token = randomBytes(32).toString('base64url');
  // A team store that cannot be reached yet: answer "store unavailable" while retrying.
  let unavailable: UnavailableServer | undefined;
  let port = args.port;
  const onStoreRetry = async (message: string) => {
    if (!args.http || unavailable) return unavailable?.setReason(message);
    unavailable = await serveUnavailable(bind.host, port ?? 0, message);
    port = unavailable.port;
    announce(`${bind.tls ? 'https' : 'http'}://${bind.host}:${port}/mcp`);
  };
  let retrying: Promise<void> = Promise.resolve();
  let announced = false;
  const announce = (url: string) => {
    if (!announced) process.stdout.write(JSON.stringify({ url, token }) + '\n');
    announced = true;
  };
  const team = databaseUrl(options.databaseUrl, process.env) !== undefined;
  const runtime = await createRuntime({
    ...options,
    watch: true,
    storeConnectForMs: team ? Infinity : undefined,
    onStoreRetry: (message) => void (retrying = retrying.then(() => onStoreRetry(message)).catch((error) => log.warn(errorMessage(error)))),
  });
  await retrying;
  await unavailable?.close();
  const powers = runtime.registry.snapshot().powers;
  log.info(`${powers.length} power(s): ${powers.map((p) => p.name).join(', ') || 'none'}`);
  let stopping: Promise<void> | undefined;
  let closeEndpoint: () => Promise<void> = async () => undefined;
  const stop = (why: string) => {
    stopping ??= (async () => {
      log.info(`stopping (${why})`);
      await closeEndpoint().catch((error) => log.warn(errorMessage(error)));
      await runtime.close();
    })();
    return stopping;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => void stop(signal).then(() => process.exit(0)));
  }

  if (args.stdio) {
    const transport = new BoundedStdioServerTransport(runtime.settings.limits.requestBytes);
    const session = createMcpSession(runtime.gateway, 'stdio');
    await session.connect(transport);
    const ended = () => void stop('stdin closed').then(() => process.exit(0));
    process.stdin.once('end', ended);
    process.stdin.once('close', ended);
    closeEndpoint = () => session.close();
    log.info('serving MCP on stdio');
  } else {
    const users = new UserDirectory(runtime.store);
    const endpoint = await serveHttp(runtime.gateway, { ...bind, port, token, users: (bearer) => users.authenticate(bearer) });
    closeEndpoint = () => endpoint.close();
    announce(endpoint.url);
    log.info(`serving MCP on ${endpoint.url}`);
  }
  runtime.gateway.discoverUnknownPowers();
  await new Promise<never>(() => undefined);
  return 0;
}
