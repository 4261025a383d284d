/**
 * Node's HTTP request and response as the web-standard Request and Response the SDK's v2 HTTP
 * transports take and give: the body already read and parsed by the gateway (its size limit
 * applied) travels as JSON text, and a streamed answer (SSE) is piped until either side ends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export function webHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** The request as a web Request, aborted when the client goes away. */
export function webRequest(request: IncomingMessage, response: ServerResponse, url: string, body: unknown): Request {
  const headers = webHeaders(request);
  const aborted = new AbortController();
  response.once('close', () => aborted.abort());
  const method = request.method ?? 'GET';
  return new Request(url, { method, headers, signal: aborted.signal, ...(method === 'POST' ? { body: JSON.stringify(body) } : {}) });
}

/** Writes a web Response to the Node response, streaming its body. */
export function sendWebResponse(response: ServerResponse, answer: Response): void {
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (!answer.body) return void response.end();
  const stream = Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>);
  response.once('close', () => stream.destroy());
  stream.pipe(response);
}
