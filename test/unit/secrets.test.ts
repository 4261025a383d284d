import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSecretName, maskDeep, maskSecrets, registerSecretEntries, SecretLines } from '../../server/util/secrets.js';

test('names that name a secret, and names that do not', () => {
  for (const name of [
    'API_KEY',
    'apiKey',
    'x-api-key',
    'GITHUB_TOKEN',
    'githubPersonalAccessToken',
    'Authorization',
    'Set-Cookie',
    'DB_PASSWORD',
    'client_secret',
    'AWS_SECRET_ACCESS_KEY',
    'credentials',
    'oauth',
    'AUTH',
  ]) {
    assert.ok(isSecretName(name), name);
  }
  for (const name of ['MODE', 'keywords', 'author', 'tokens', 'maxTokens', 'monkey', 'path', 'session', 'PORT'])
    assert.ok(!isSecretName(name), name);
});

test('free text: NAME=value and NAME: value pairs by meaning, bearer tokens, private keys, known token shapes', () => {
  assert.equal(maskSecrets('API_KEY=sk-abc123 connecting'), 'API_KEY=*** connecting');
  assert.equal(maskSecrets('db_password: hunter2, retrying'), 'db_password: ***, retrying');
  assert.equal(maskSecrets('{"token": "abc.def", "mode": "fast"}'), '{"token": "***", "mode": "fast"}');
  assert.equal(maskSecrets('sent Authorization: Bearer eyJhbGciOi.payload.sig'), 'sent Authorization: Bearer ***');
  assert.equal(maskSecrets('header Bearer abcdef123456 seen'), 'header Bearer *** seen');
  assert.equal(maskSecrets('key ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa here'), 'key *** here');
  assert.equal(
    maskSecrets('-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----'),
    '***private key***',
  );
  assert.equal(
    maskSecrets('MODE: alpha, tokens: 1234, author: ada'),
    'MODE: alpha, tokens: 1234, author: ada',
    'length is not meaning',
  );
  assert.equal(
    maskSecrets('{"inputSchema":{"token":{"type":"string"}}}'),
    '{"inputSchema":{"token":{"type":"string"}}}',
    'JSON structure is left intact',
  );
});

test('values of secret-named env keys are masked anywhere; other env values are not', () => {
  registerSecretEntries({ SERVICE_TOKEN: 'plain-looking-value-77', MODE: 'alpha' });
  assert.equal(maskSecrets('started with plain-looking-value-77 in alpha mode'), 'started with *** in alpha mode');
  assert.deepEqual(maskDeep({ detail: 'crashed: SERVICE_TOKEN=x', list: ['plain-looking-value-77'], n: 3 }), {
    detail: 'crashed: SERVICE_TOKEN=***',
    list: ['***'],
    n: 3,
  });
});

test("a URL's userinfo password is masked, its user, host and path kept; a URL without a password is left as it is", () => {
  assert.equal(
    maskSecrets('connect to postgres://admin:pass@host/db failed'),
    'connect to postgres://admin:***@host/db failed',
  );
  assert.equal(maskSecrets('redis://:s3cr3t@cache:6379/0'), 'redis://:***@cache:6379/0');
  assert.equal(
    maskSecrets('"url":"mongodb+srv://app:p%40ss@cluster0.example.net/?retryWrites=true"'),
    '"url":"mongodb+srv://app:***@cluster0.example.net/?retryWrites=true"',
  );
  assert.equal(
    maskSecrets('https://user:tok@github.com/org/repo.git and ftp://a:b@c'),
    'https://user:***@github.com/org/repo.git and ftp://a:***@c',
  );
  for (const ordinary of [
    'https://user@example.com/x',
    'http://localhost:8080/a@b',
    'git@github.com:org/repo.git',
    'mailto:ada@example.com',
    'see http://example.com:80/path?q=a:b@c',
    'time 12:30 at home',
  ]) {
    assert.equal(maskSecrets(ordinary), ordinary, ordinary);
  }
});

test('a PEM private key block is masked whole: every kind, to the text end without its END line, and line by line', () => {
  for (const kind of [
    'RSA PRIVATE KEY',
    'OPENSSH PRIVATE KEY',
    'ENCRYPTED PRIVATE KEY',
    'EC PRIVATE KEY',
    'PGP PRIVATE KEY BLOCK',
  ]) {
    const block = `-----BEGIN ${kind}-----\nMIIEowIBAAKCAQEAx\nZm9vYmFy\n-----END ${kind}-----`;
    assert.equal(maskSecrets(`key: before\n${block}\nafter`), 'key: ***\n***private key***\nafter', kind);
  }
  assert.equal(maskSecrets('dump -----BEGIN PRIVATE KEY-----\nMIIEowIB\nAAKCAQ'), 'dump ***private key***');
  const lines = new SecretLines();
  const streamed = [
    'starting',
    '-----BEGIN OPENSSH PRIVATE KEY-----',
    'b3BlbnNzaC1rZXktdjEAAAAA',
    'QyNTUxOQAAACBh',
    '-----END OPENSSH PRIVATE KEY-----',
    'listening on 3000',
  ].map((line) => lines.mask(line));
  assert.deepEqual(streamed, [
    'starting',
    '***private key***',
    '***private key***',
    '***private key***',
    '***private key***',
    'listening on 3000',
  ]);
  const unended = new SecretLines();
  unended.mask('-----BEGIN RSA PRIVATE KEY-----');
  const after = Array.from({ length: 300 }, (_, i) => unended.mask(`line ${i}`));
  assert.equal(after[0], '***private key***');
  assert.equal(after[299], 'line 299', 'a BEGIN without END masks no more lines than a key has');
});
