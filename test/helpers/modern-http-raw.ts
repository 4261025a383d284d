/**
 * A raw 2026-07-28 request over Streamable HTTP, as a client without the SDK sends it: the
 * `Mcp-Method` and `Mcp-Name` headers, the version, client info and capabilities in `_meta`, and
 * the answer read from a JSON body or an event stream.
 */
import assert from 'node:assert/strict';

export const MODERN = '2026-07-28';
export const TASKS = 'io.modelcontextprotocol/tasks';

export type RawAnswer = { result?: Record<string, unknown>; error?: { code: number; message: string } };

export interface RawRequest {
  url: string;
  token: string;
  method: string;
  params: Record<string, unknown>;
  /** The `Mcp-Name` header: the tool, prompt or task the request names. */
  name: string;
  client: string;
  capabilities: Record<string, unknown>;
  /** More `_meta` keys (a log level, ...). */
  meta?: Record<string, unknown>;
  /** Gets the notifications sent with the answer. */
  notes?: Array<Record<string, unknown>>;
}

let nextId = 1;

/** Sends the request; its JSON-RPC answer (asserted present). */
export async function sendModern(request: RawRequest): Promise<RawAnswer> {
  const id = nextId++;
  const { method } = request;
  const response = await fetch(request.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${request.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-method': method,
      'mcp-name': request.name,
      'mcp-protocol-version': MODERN,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...request.params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: request.client, version: '1' },
          'io.modelcontextprotocol/clientCapabilities': request.capabilities,
          ...request.meta,
        },
      },
    }),
  });
  const text = await response.text();
  const messages = response.headers.get('content-type')?.includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>)
    : [JSON.parse(text) as Record<string, unknown>];
  const answer = messages.find((m) => m.id === id);
  request.notes?.push(...messages.filter((m) => m.id === undefined));
  assert.ok(answer, `${method} answered ${response.status}: ${text.slice(0, 300)}`);
  return answer as RawAnswer;
}
