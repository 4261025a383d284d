import { setMaxListeners } from 'node:events';
import type { FetchLike } from '@modelcontextprotocol/client';

/** Statuses whose response carries no body, and redirects, which the SDK reads by their url. */
const PASSED_AS_IS = (status: number) =>
  status < 200 || status === 204 || status === 205 || (status >= 300 && status < 400);

/**
 * A fetch for the SDK's HTTP client transports that gives each request an AbortSignal of its own.
 * The transports hand one connection-wide signal to every request; undici adds an abort listener
 * to it per request and drops it only when that request is garbage-collected, so under sustained
 * calls thousands pile up on one signal (and Node prints a MaxListenersExceededWarning per call).
 * Here the connection's signal holds one listener per request still live: until its response
 * body is read to the end, fails, or is cancelled. Aborting the connection still aborts every
 * request and open stream. As many requests may be live at once as callers send, so the
 * connection's signal takes any number of listeners without a warning.
 */
export function fetchWithOwnSignal(base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const shared = init?.signal;
    if (!shared || shared.aborted) return base(url, init);
    setMaxListeners(0, shared);
    const own = new AbortController();
    const forward = () => own.abort(shared.reason);
    shared.addEventListener('abort', forward, { once: true });
    const release = () => shared.removeEventListener('abort', forward);
    let response: Response;
    try {
      response = await base(url, { ...init, signal: own.signal });
    } catch (error) {
      release();
      throw error;
    }
    if (!response.body || PASSED_AS_IS(response.status)) {
      release();
      return response;
    }
    return new Response(releasingAtEnd(response.body, release), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The same bytes as `body`; calls `release` once the body ends, fails or is cancelled. */
function releasingAtEnd(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}
