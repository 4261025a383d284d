import { serveHttp } from '../gateway/http-server.js';
import { BoundedStdioServerTransport } from '../gateway/stdio-transport.js';
import { createMcpSession } from '../gateway/mcp-session.js';
import { createRuntime, type RuntimeOptions } from '../runtime.js';
import { errorMessage, logger } from '../log.js';
import { UsageError, type CliArgs } from './args.js';

const log = logger('serve');

/** Runs the gateway until the client goes away or a signal arrives; every child is stopped on the way out. */
export async function serve(args: CliArgs, options: RuntimeOptions): Promise<number> {
  if (args.stdio === args.http) throw new UsageError('serve needs exactly one of --stdio or --http.');
  const runtime = await createRuntime({ ...options, watch: true });
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
    const endpoint = await serveHttp(runtime.gateway, { port: args.port });
    closeEndpoint = () => endpoint.close();
    process.stdout.write(JSON.stringify({ url: endpoint.url, token: endpoint.token }) + '\n');
    log.info(`serving MCP on ${endpoint.url}`);
  }
  runtime.gateway.discoverUnknownPowers();
  await new Promise<never>(() => undefined);
  return 0;
}
