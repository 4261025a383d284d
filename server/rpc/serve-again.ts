/** Serves the MCP endpoint at the address and token it had before a restart, when that port is still free. */
import { serveHttp, type HttpEndpoint } from '../gateway/http/http-server.js';
import type { Gateway } from '../gateway/gateway.js';
import { errorMessage, logger } from '../log.js';

const log = logger('rpc');

function loopbackPort(url: string): number | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  const port = Number(parsed.port);
  return parsed.hostname === '127.0.0.1' && Number.isInteger(port) && port > 0 ? port : undefined;
}

export async function serveAgain(
  gateway: Gateway,
  previous: { url: string; token: string } | undefined,
): Promise<HttpEndpoint> {
  const port = previous ? loopbackPort(previous.url) : undefined;
  if (!previous || port === undefined) return serveHttp(gateway);
  try {
    return await serveHttp(gateway, { port, token: previous.token });
  } catch (error) {
    log.info(`port ${port} is taken (${errorMessage(error)}): serving on a new port with the same token`);
    return serveHttp(gateway, { token: previous.token });
  }
}
