import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSecretName, maskDeep, maskSecrets, registerSecretEntries } from '../../server/util/secrets.js';

test('names that name a secret, and names that do not', () => {
  for (const name of ['API_KEY', 'apiKey', 'x-api-key', 'GITHUB_TOKEN', 'githubPersonalAccessToken', 'Authorization', 'Set-Cookie', 'DB_PASSWORD', 'client_secret', 'AWS_SECRET_ACCESS_KEY', 'credentials', 'oauth', 'AUTH']) {
    assert.ok(isSecretName(name), name);
  }
  for (const name of ['MODE', 'keywords', 'author', 'tokens', 'maxTokens', 'monkey', 'path', 'session', 'PORT']) assert.ok(!isSecretName(name), name);
});

test('free text: NAME=value and NAME: value pairs by meaning, bearer tokens, private keys, known token shapes', () => {
  assert.equal(maskSecrets('API_KEY=sk-abc123 connecting'), 'API_KEY=*** connecting');
  assert.equal(maskSecrets('db_password: hunter2, retrying'), 'db_password: ***, retrying');
  assert.equal(maskSecrets('{"token": "abc.def", "mode": "fast"}'), '{"token": "***", "mode": "fast"}');
  assert.equal(maskSecrets('sent Authorization: Bearer eyJhbGciOi.payload.sig'), 'sent Authorization: Bearer ***');
  assert.equal(maskSecrets('header Bearer abcdef123456 seen'), 'header Bearer *** seen');
  assert.equal(maskSecrets('key ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa here'), 'key *** here');
  assert.equal(maskSecrets('-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----'), '***private key***');
  assert.equal(maskSecrets('MODE: alpha, tokens: 1234, author: ada'), 'MODE: alpha, tokens: 1234, author: ada', 'length is not meaning');
  assert.equal(maskSecrets('{"inputSchema":{"token":{"type":"string"}}}'), '{"inputSchema":{"token":{"type":"string"}}}', 'JSON structure is left intact');
});

test('values of secret-named env keys are masked anywhere; other env values are not', () => {
  registerSecretEntries({ SERVICE_TOKEN: 'plain-looking-value-77', MODE: 'alpha' });
  assert.equal(maskSecrets('started with plain-looking-value-77 in alpha mode'), 'started with *** in alpha mode');
  assert.deepEqual(maskDeep({ detail: 'crashed: SERVICE_TOKEN=x', list: ['plain-looking-value-77'], n: 3 }), { detail: 'crashed: SERVICE_TOKEN=***', list: ['***'], n: 3 });
});
