import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { preview } from '../../../shared/preview.js';
import { OWNER, REVIEWER, type Identity } from '../../users/identity.js';

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
  const verdict = checkOrigin(request, port, false);
  if (verdict) return verdict;
  const who = authenticate(request, token);
  return 'status' in who ? who : undefined;
}

/**
 * DNS-rebinding protection. On a public bind (`--host`, a team gateway) any Host is accepted (a
 * bearer token is required all the same) and an Origin, when sent, must name that Host.
 */
export function checkOrigin(request: IncomingMessage, port: number, publicBind: boolean): GuardVerdict | undefined {
  if (publicBind) {
    const origin = request.headers.origin;
    if (origin !== undefined && !sameAuthority(origin, request.headers.host ?? '')) {
      return { status: 403, message: `Origin '${preview(origin, 64)}' is not allowed: it does not match the Host.` };
    }
    return undefined;
  }
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const host = request.headers.host ?? '';
  if (!allowedHosts.has(host.toLowerCase())) {
    return {
      status: 403,
      message: `Host '${preview(host, 64)}' is not allowed: connect to http://127.0.0.1:${port}/mcp.`,
    };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin, port)) {
    return {
      status: 403,
      message: `Origin '${preview(origin, 64)}' is not allowed: the gateway only serves local clients.`,
    };
  }
  return undefined;
}

/** The identity of the bearer token: the owner's token, the admin token, or a user's (`users`); else a 401 verdict. */
export function authenticate(
  request: IncomingMessage,
  token: string,
  users?: (bearer: string) => Identity | undefined,
  adminToken?: string,
): Identity | GuardVerdict {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  const bearer = match?.[1].trim();
  if (bearer && sameSecret(bearer, token)) return OWNER;
  if (bearer && adminToken && sameSecret(bearer, adminToken)) return REVIEWER;
  const user = bearer ? users?.(bearer) : undefined;
  if (user) return user;
  return {
    status: 401,
    message:
      'Missing or wrong bearer token: send "Authorization: Bearer <token>" with the token the gateway printed or your user token.',
  };
}

function sameAuthority(origin: string, host: string): boolean {
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
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
