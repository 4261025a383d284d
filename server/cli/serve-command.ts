import { randomBytes } from 'node:crypto';
import { planBind } from '../gateway/http/http-bind.js';
import { EarlyAnswersTransport } from '../gateway/sessions/early-answers.js';
import { GATEWAY_TOOLS } from '../gateway/gateway-tools.js';
import { BoundedStdioServerTransport } from '../gateway/sessions/stdio-transport.js';
import type { UnavailableServer } from '../gateway/http/unavailable-server.js';
import { databaseUrl } from '../store/open-store.js';
import type { Runtime, RuntimeOptions } from '../runtime.js';
import { runtimeConfig } from '../runtime-parts.js';
import { errorMessage, logger } from '../log.js';
import { UsageError, type CliArgs } from './args.js';
import { adminToken } from './admin-token.js';
import { READ_AT_START } from '../util/gateway-secrets.js';

const log = logger('serve');
/** Without a tools/list or another request, the gateway is built this long after start anyway. */
const BUILD_ANYWAY_MS = 2000;

/**
 * Runs the gateway until the client goes away or a signal arrives; every child is stopped on the way out.
 * On stdio, `initialize` and the first `tools/list` are answered before the gateway is loaded
 * (EarlyAnswersTransport); the store, the powers and the rest load after them. Over HTTP, a team
 * store that cannot be reached yet answers "store unavailable" while the gateway retries.
 */
export async function serve(args: CliArgs, given: RuntimeOptions): Promise<number> {
  if (args.stdio === args.http) throw new UsageError('serve needs exactly one of --stdio or --http.');
  // The gateway's own credentials are read once, then gone from its environment: nothing it runs inherits them.
  const admin = adminToken(args.adminTokenFile, process.env);
  const options: RuntimeOptions = { ...given, databaseUrl: databaseUrl(given.databaseUrl, process.env) };
  for (const name of READ_AT_START) delete process.env[name];
  let bind;
  try {
    bind = planBind(args);
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  const token = randomBytes(32).toString('base64url');
  let unavailable: UnavailableServer | undefined;
  let port = args.port;
  let announced = false;
  const announce = (url: string) => {
    if (!announced) process.stdout.write(JSON.stringify({ url, token }) + '\n');
    announced = true;
  };
  const onStoreRetry = async (message: string) => {
    if (!args.http || unavailable) return unavailable?.setReason(message);
    const { serveUnavailable } = await import('../gateway/http/unavailable-server.js');
    unavailable = await serveUnavailable(bind.host, port ?? 0, message);
    port = unavailable.port;
    announce(`${bind.tls ? 'https' : 'http'}://${bind.host}:${port}/mcp`);
  };
  let retrying: Promise<void> = Promise.resolve();
  const team = options.databaseUrl !== undefined;

  let runtime: Runtime | undefined;
  let stopping: Promise<void> | undefined;
  let closeEndpoint: () => Promise<void> = async () => undefined;
  let building: Promise<Runtime> | undefined;
  const build = () =>
    (building ??= import('../runtime.js')
      .then(({ createRuntime }) =>
        createRuntime({
          ...options,
          watch: true,
          storeConnectForMs: team ? Infinity : undefined,
          onStoreRetry: (message) =>
            void (retrying = retrying
              .then(() => onStoreRetry(message))
              .catch((error) => log.warn(errorMessage(error)))),
        }),
      )
      .then(async (built) => {
        await retrying;
        await unavailable?.close();
        const powers = built.registry.snapshot().powers;
        log.info(`${powers.length} power(s): ${powers.map((p) => p.name).join(', ') || 'none'}`);
        return (runtime = built);
      }));
  const stop = (why: string) => {
    stopping ??= (async () => {
      log.info(`stopping (${why})`);
      await closeEndpoint().catch((error) => log.warn(errorMessage(error)));
      // A gateway being built is closed once built: its children must not outlive this process.
      await (runtime ?? (await building?.catch(() => undefined)))?.close();
    })();
    return stopping;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => void stop(signal).then(() => process.exit(0)));
  }

  if (args.stdio) {
    const requestBytes = runtimeConfig(options).settings.limits.requestBytes;
    const transport = new EarlyAnswersTransport(new BoundedStdioServerTransport(requestBytes), {
      tools: GATEWAY_TOOLS,
      needed: () => void build(),
    });
    const ended = () => void stop('stdin closed').then(() => process.exit(0));
    process.stdin.once('end', ended);
    process.stdin.once('close', ended);
    await transport.listen();
    setTimeout(() => void build(), BUILD_ANYWAY_MS).unref();
    const { gateway } = await build();
    const { serveStdioSessions } = await import('../gateway/sessions/stdio-sessions.js');
    const served = serveStdioSessions(gateway, transport);
    for (let i = 0; i < transport.listsAnswered; i++)
      gateway.ports.intel.reads.listed('stdio', gateway.listTools('stdio'));
    closeEndpoint = () => served.close();
    log.info('serving MCP on stdio');
  } else {
    const built = await build();
    const [{ serveHttp }, { UserDirectory }] = await Promise.all([
      import('../gateway/http/http-server.js'),
      import('../users/user-directory.js'),
    ]);
    const users = new UserDirectory(built.store);
    const endpoint = await serveHttp(built.gateway, {
      ...bind,
      port,
      token,
      users: (bearer) => users.authenticate(bearer),
      adminToken: admin,
    });
    closeEndpoint = () => endpoint.close();
    announce(endpoint.url);
    log.info(`serving MCP on ${endpoint.url}`);
  }
  runtime!.gateway.ports.discoverUnknownPowers();
  await new Promise<never>(() => undefined);
  return 0;
}
