/**
 * Where the HTTP gateway may listen. Loopback by default; any other address is a team gateway
 * reachable from the network, so it needs `--host` spelled out and either TLS (`--tls-cert` and
 * `--tls-key`) or `--behind-proxy ADDR` (a reverse proxy terminates TLS; only it may connect).
 */
import * as fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import * as net from 'node:net';

export interface BindFlags {
  host?: string;
  tlsCert?: string;
  tlsKey?: string;
  behindProxy?: string;
}

export interface BindPlan {
  host: string;
  tls?: { cert: Buffer; key: Buffer };
  behindProxy?: string;
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The bind plan for the flags, or an Error saying which flag is missing or wrong. */
export function planBind(flags: BindFlags): BindPlan {
  const host = flags.host ?? '127.0.0.1';
  if (Boolean(flags.tlsCert) !== Boolean(flags.tlsKey)) throw new Error('--tls-cert and --tls-key go together.');
  if (flags.behindProxy !== undefined && net.isIP(flags.behindProxy) === 0)
    throw new Error(`--behind-proxy needs the proxy's IP address, got '${flags.behindProxy}'.`);
  const tls =
    flags.tlsCert && flags.tlsKey
      ? { cert: fs.readFileSync(flags.tlsCert), key: fs.readFileSync(flags.tlsKey) }
      : undefined;
  if (!isLoopbackHost(host) && !tls && !flags.behindProxy) {
    throw new Error(
      `binding to ${host} exposes the gateway to the network: add --tls-cert F --tls-key F, ` +
        `or --behind-proxy PROXY_ADDR when a reverse proxy terminates TLS.`,
    );
  }
  return { host, tls, behindProxy: flags.behindProxy };
}

const normalize = (address: string) => address.replace(/^::ffff:/, '');

export function fromProxy(request: IncomingMessage, proxy: string): boolean {
  return normalize(request.socket.remoteAddress ?? '') === normalize(proxy);
}
