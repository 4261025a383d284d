import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopbackHost, planBind } from '../../server/gateway/http/http-bind.js';

test('a non-loopback bind needs TLS or a reverse proxy; loopback needs neither', () => {
  assert.deepEqual(planBind({}), { host: '127.0.0.1', tls: undefined, behindProxy: undefined });
  assert.equal(planBind({ host: 'localhost' }).host, 'localhost');
  assert.throws(
    () => planBind({ host: '0.0.0.0' }),
    /exposes the gateway to the network: add --tls-cert F --tls-key F, or --behind-proxy/,
  );
  assert.deepEqual(planBind({ host: '10.0.0.5', behindProxy: '10.0.0.1' }), {
    host: '10.0.0.5',
    tls: undefined,
    behindProxy: '10.0.0.1',
  });
  assert.throws(() => planBind({ host: '10.0.0.5', behindProxy: 'proxy.example' }), /needs the proxy's IP address/);
  assert.throws(() => planBind({ host: '10.0.0.5', tlsCert: '/x' }), /go together/);
  assert.ok(isLoopbackHost('127.0.0.2') && isLoopbackHost('::1') && !isLoopbackHost('192.168.1.2'));
});
