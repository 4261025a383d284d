import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchWithOwnSignal } from '../../server/upstream/own-signal-fetch.js';

/** A loopback server: /json answers at once, /stream sends one event and holds, /slow never answers, /moved redirects. */
async function startServer() {
  const closedStreams: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/json') {
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-extra': 'kept' });
      res.end(JSON.stringify({ ok: true }));
    } else if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      res.on('close', () => closedStreams.push(req.url!));
    } else if (req.url === '/moved') {
      res.writeHead(307, { location: '/json' });
      res.end();
    } else if (req.url === '/empty') {
      res.writeHead(202);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    closedStreams,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const listenersOn = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

/** Runs `body` with the loopback server, one connection-wide AbortController and the own-signal fetch; stops the server after. */
async function withServer(
  body: (setup: {
    server: Awaited<ReturnType<typeof startServer>>;
    connection: AbortController;
    ownFetch: ReturnType<typeof fetchWithOwnSignal>;
  }) => Promise<void>,
): Promise<void> {
  const server = await startServer();
  try {
    await body({ server, connection: new AbortController(), ownFetch: fetchWithOwnSignal() });
  } finally {
    await server.close();
  }
}

test('requests sharing one signal leave no listener on it once their bodies are read', () =>
  withServer(async ({ server, connection, ownFetch }) => {
    for (let i = 0; i < 300; i++) {
      const response = await ownFetch(`${server.base}/json`, { signal: connection.signal });
      assert.deepEqual(await response.json(), { ok: true });
    }
    const empty = await ownFetch(`${server.base}/empty`, { method: 'POST', body: '{}', signal: connection.signal });
    assert.equal(empty.status, 202);
    await empty.text();
    assert.equal(listenersOn(connection.signal), 0);
  }));

test('a response keeps its status, status text and headers, and a redirect is returned as fetch returned it', () =>
  withServer(async ({ server, connection, ownFetch }) => {
    const response = await ownFetch(`${server.base}/json`, { signal: connection.signal });
    assert.equal(response.status, 201);
    assert.equal(response.statusText, 'Made');
    assert.equal(response.headers.get('x-extra'), 'kept');
    await response.arrayBuffer();
    const redirect = await ownFetch(`${server.base}/moved`, { redirect: 'manual', signal: connection.signal });
    assert.equal(redirect.status, 307);
    assert.equal(redirect.headers.get('location'), '/json');
    assert.equal(listenersOn(connection.signal), 0);
  }));

test('aborting the shared signal ends an open stream, and the stream holds one listener until then', () =>
  withServer(async ({ server, connection, ownFetch }) => {
    const response = await ownFetch(`${server.base}/stream`, { signal: connection.signal });
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.equal(new TextDecoder().decode(first.value), 'data: first\n\n');
    assert.equal(listenersOn(connection.signal), 1);
    connection.abort(new Error('transport closed'));
    await assert.rejects(reader.read());
    assert.equal(listenersOn(connection.signal), 0);
    await waitUntil(() => server.closedStreams.length === 1);
  }));

test('a stream its reader cancels releases the shared signal and closes the connection', () =>
  withServer(async ({ server, connection, ownFetch }) => {
    const response = await ownFetch(`${server.base}/stream`, { signal: connection.signal });
    await response.body!.cancel();
    assert.equal(listenersOn(connection.signal), 0);
    await waitUntil(() => server.closedStreams.length === 1);
  }));

test('aborting before the answer rejects the request with the abort and releases the signal', () =>
  withServer(async ({ server, connection, ownFetch }) => {
    const pending = ownFetch(`${server.base}/slow`, { signal: connection.signal });
    await waitUntil(() => listenersOn(connection.signal) === 1);
    connection.abort(new Error('transport closed'));
    await assert.rejects(pending, /transport closed/);
    assert.equal(listenersOn(connection.signal), 0);
    await assert.rejects(ownFetch(`${server.base}/json`, { signal: connection.signal }), /transport closed/);
  }));

test('many requests at once on one signal print no MaxListenersExceededWarning', () =>
  withServer(async ({ server, connection, ownFetch }) => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const responses = await Promise.all(
        Array.from({ length: 40 }, () => ownFetch(`${server.base}/stream`, { signal: connection.signal })),
      );
      assert.equal(listenersOn(connection.signal), 40);
      await Promise.all(responses.map((response) => response.body!.cancel()));
      assert.equal(listenersOn(connection.signal), 0);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings, []);
    } finally {
      process.off('warning', onWarning);
    }
  }));

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
