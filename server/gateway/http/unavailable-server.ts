/**
 * What the HTTP gateway answers while its store (PostgreSQL) cannot be reached at start: every
 * request gets 503 "store unavailable" with the (masked) reason at once, instead of hanging.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface UnavailableServer {
  port: number;
  setReason(reason: string): void;
  close(): Promise<void>;
}

export async function serveUnavailable(host: string, port: number, reason: string): Promise<UnavailableServer> {
  let current = reason;
  const server: Server = createServer((request, response) => {
    request.resume();
    response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' });
    response.end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32000, message: `store unavailable: ${current} The gateway keeps retrying.` },
        id: null,
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    setReason: (text) => void (current = text),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
