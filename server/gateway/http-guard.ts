import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { preview } from '../util/preview.js';

export interface GuardVerdict {
  status: 401 | 403;
  message: string;
}

/**
 * The HTTP endpoint's checks, before any MCP handling: the bearer token, and DNS-rebinding
 * protection (the Host must be this loopback address; an Origin, when sent, must be too).
 * VS Code sends no Origin header, so a missing Origin is accepted.
 */
export function checkRequest(request: IncomingMessage, port: number, token: string): GuardVerdict | undefined {
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const host = request.headers.host ?? '';
  if (!allowedHosts.has(host.toLowerCase())) {
    return { status: 403, message: `Host '${preview(host, 64)}' is not allowed: connect to http://127.0.0.1:${port}/mcp.` };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin, port)) {
    return { status: 403, message: `Origin '${preview(origin, 64)}' is not allowed: the gateway only serves local clients.` };
  }
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match || !sameSecret(match[1].trim(), token)) {
    return { status: 401, message: 'Missing or wrong bearer token: send "Authorization: Bearer <token>" with the token the gateway printed.' };
  }
  return undefined;
}

function isLoopbackOrigin(origin: string, port: number): boolean {
  try {
    const url = new URL(origin);
    return (url.hostname === '127.0.0.1' || url.hostname === 'localhost') && url.port === String(port);
  } catch {
    return false;
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
