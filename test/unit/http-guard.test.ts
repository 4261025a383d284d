import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { checkRequest } from '../../server/gateway/http/http-guard.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const ok = { host: '127.0.0.1:4000', authorization: 'Bearer secret-token' };

test('accepts the right token and host, with or without a loopback Origin', () => {
  assert.equal(checkRequest(request(ok), 4000, 'secret-token'), undefined);
  assert.equal(
    checkRequest(request({ ...ok, host: 'localhost:4000', origin: 'http://localhost:4000' }), 4000, 'secret-token'),
    undefined,
  );
});

test('401 without a token or with a wrong one', () => {
  assert.equal(checkRequest(request({ host: ok.host }), 4000, 'secret-token')?.status, 401);
  assert.equal(
    checkRequest(request({ ...ok, authorization: 'Bearer secret-tokeN' }), 4000, 'secret-token')?.status,
    401,
  );
  assert.equal(
    checkRequest(request({ ...ok, authorization: 'Basic secret-token' }), 4000, 'secret-token')?.status,
    401,
  );
});

test('403 for a foreign host, another port, or a foreign origin', () => {
  assert.equal(checkRequest(request({ ...ok, host: 'attacker.example:4000' }), 4000, 'secret-token')?.status, 403);
  assert.equal(checkRequest(request({ ...ok, host: '127.0.0.1:4001' }), 4000, 'secret-token')?.status, 403);
  assert.equal(checkRequest(request({ ...ok, origin: 'https://attacker.example' }), 4000, 'secret-token')?.status, 403);
  assert.equal(checkRequest(request({ ...ok, origin: 'null' }), 4000, 'secret-token')?.status, 403);
});
