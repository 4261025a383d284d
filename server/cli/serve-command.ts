import * as path from 'node:path';
import { resolvePaths } from '../config/paths.js';
import { loadSettingsFile, withOverrides } from '../config/settings.js';
import { EarlyAnswersTransport } from '../gateway/early-answers.js';
import { GATEWAY_TOOLS } from '../gateway/gateway-tools.js';
import { BoundedStdioServerTransport } from '../gateway/stdio-transport.js';
import type { Runtime, RuntimeOptions } from '../runtime.js';
import { errorMessage, logger } from '../log.js';
import { UsageError, type CliArgs } from './args.js';

const log = logger('serve');
/** Without a tools/list or another request, the gateway is built this long after start anyway. */
const BUILD_ANYWAY_MS = 2000;

/**
 * Runs the gateway until the client goes away or a signal arrives; every child is stopped on the way out.
 * On stdio, `initialize` and the first `tools/list` are answered before the gateway is loaded
 * (EarlyAnswersTransport); the store, the powers and the rest load after them.
 */
export async function serve(args: CliArgs, options: RuntimeOptions): Promise<number> {
  if (args.stdio === args.http) throw new UsageError('serve needs exactly one of --stdio or --http.');
  let runtime: Runtime | undefined;
  let stopping: Promise<void> | undefined;
  let closeEndpoint: () => Promise<void> = async () => undefined;
  let building: Promise<Runtime> | undefined;
  const build = () => (building ??= import('../runtime.js').then(({ createRuntime }) => createRuntime({ ...options, watch: true })).then((built) => (runtime = built)));
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
    const transport = new EarlyAnswersTransport(new BoundedStdioServerTransport(requestBytes(options)), { tools: GATEWAY_TOOLS, needed: () => void build() });
    const ended = () => void stop('stdin closed').then(() => process.exit(0));
    process.stdin.once('end', ended);
    process.stdin.once('close', ended);
    await transport.listen();
    setTimeout(() => void build(), BUILD_ANYWAY_MS).unref();
    const { gateway } = await build();
    const { createMcpSession } = await import('../gateway/mcp-session.js');
    const session = createMcpSession(gateway, 'stdio');
    await session.connect(transport);
    for (let i = 0; i < transport.listsAnswered; i++) gateway.intel.reads.listed('stdio', gateway.listTools('stdio'));
    closeEndpoint = () => session.close();
    log.info('serving MCP on stdio');
  } else {
    const { gateway } = await build();
    const { serveHttp } = await import('../gateway/http-server.js');
    const endpoint = await serveHttp(gateway, { port: args.port });
    closeEndpoint = () => endpoint.close();
    process.stdout.write(JSON.stringify({ url: endpoint.url, token: endpoint.token }) + '\n');
    log.info(`serving MCP on ${endpoint.url}`);
  }
  runtime!.gateway.discoverUnknownPowers();
  await new Promise<never>(() => undefined);
  return 0;
}

/** The request size limit of the settings file (the runtime reads the same file again when it is built). */
function requestBytes(options: RuntimeOptions): number {
  const paths = resolvePaths(options.env ?? process.env, options.workspaceFolder);
  const loaded = loadSettingsFile(path.join(paths.home, 'settings.json'));
  return withOverrides(loaded.settings, options.settingsOverrides ?? {}).limits.requestBytes;
}
