import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseActivityFilter } from '../activity/activity-query.js';
import { errorMessage } from '../log.js';
import type { Gateway } from './gateway.js';

/**
 * The read-only REST API beside /mcp, behind the same bearer token:
 * GET /api/v1/activity?intent_type=&status=&power=&tool=&since=&until=&limit=
 * Returns true when it answered the request.
 */
export function handleRestApi(gateway: Gateway, request: IncomingMessage, response: ServerResponse): boolean {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (!url.pathname.startsWith('/api/')) return false;
  if (request.method !== 'GET') return send(response, 405, { error: `${request.method} is not allowed here: the REST API is read-only (GET).` });
  if (url.pathname === '/api/v1/activity') {
    try {
      const filter = parseActivityFilter(Object.fromEntries(url.searchParams));
      return send(response, 200, { activity: gateway.activity.query(filter) });
    } catch (error) {
      return send(response, 400, { error: errorMessage(error) });
    }
  }
  return send(response, 404, { error: `No endpoint ${url.pathname}: try /api/v1/activity.` });
}

function send(response: ServerResponse, status: number, body: unknown): true {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
  return true;
}
