/**
 * Node's HTTP request and response as the web-standard Request and Response the SDK's v2 HTTP
 * transports take and give: the body already read and parsed by the gateway (its size limit
 * applied) travels as `parsedBody`, and a streamed answer (SSE) is piped until either side ends.
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

/**
 * The request as a web Request, aborted when the client goes away before its answer was sent (an
 * answered request is not: an abort costs an exception object and a dispatch per request). Its
 * body is not copied in: the gateway has read and parsed it already and hands it to the SDK as `parsedBody`.
 */
export function webRequest(request: IncomingMessage, response: ServerResponse, url: string): Request {
  const aborted = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) aborted.abort();
  });
  return new Request(url, { method: request.method ?? 'GET', headers: webHeaders(request), signal: aborted.signal });
}

/** Writes a web Response to the Node response, streaming its body. */
export function sendWebResponse(response: ServerResponse, answer: Response): void {
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (!answer.body) return void response.end();
  const stream = Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>);
  response.once('close', () => stream.destroy());
  stream.pipe(response);
}
