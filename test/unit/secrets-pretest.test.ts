import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MASK, maskSecrets, maskSecretsEveryPattern, registerSecretValue } from '../../server/util/secrets.js';

/** A seeded generator: the same strings on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REGISTERED = 'reg1stered-value-Q9';

/** One secret of each pattern maskSecrets knows, keyed by the pattern. */
const SECRETS: Record<string, string[]> = {
  registered: [REGISTERED],
  privateKey: [
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----',
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk',
  ],
  bearer: ['Bearer abcdef123456', 'Basic dXNlcjpwYXNz', 'Token 0123456789abcdef'],
  tokenShape: [
    'ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'gho_0123456789abcdefghij0123',
    'github_pat_11ABCDEFG0123456789_abcdefghij',
    'xoxb-123456789012-abcdefghij',
    'sk-abcdefghijklmnopqrstuvwxyz012345',
    'AKIAIOSFODNN7EXAMPLE',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N',
  ],
  pair: [
    'API_KEY=hunter2',
    'db_password: hunter2',
    '"token": "abc.def"',
    "client_secret='s3cr3t'",
    'Authorization: xyz',
    'githubToken=abc',
  ],
};

/** Pieces that are near misses of every pattern, plain text, and the characters they turn on. */
const PIECES = [
  'everything',
  'echo',
  'read_file',
  'allowed',
  'ok',
  'error',
  'a',
  '6f1c2d3e-aaaa-bbbb-cccc-1234567890ab',
  'MODE',
  'tokens',
  'author',
  'monkey',
  'keywords',
  'bearer',
  'basic',
  'token',
  'TOKEN',
  'Bear',
  'Basi',
  'Toke',
  'gh',
  'ghp',
  'ghx_',
  'github_pa',
  'xox',
  'xoxz-',
  'sk',
  'sk_',
  'AKI',
  'AKIA',
  'eyJ',
  'ey',
  '-----BEGIN',
  '-----BEGIN ',
  '----BEGIN',
  'PRIVATE KEY',
  'reg1stered',
  'value-Q9',
  ':',
  '=',
  ' : ',
  ' = ',
  '"',
  "'",
  ',',
  ';',
  '&',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '<',
  '>',
  ' ',
  '  ',
  '\t',
  '\n',
  '-',
  '_',
  '.',
  '/',
  '+',
  '~',
  'é',
  '\u{1F600}',
  '0',
  '42',
  'abcdefghij',
  'ABCDEFGHIJ',
  '0123456789',
  'x'.repeat(70),
];

test('the pre-test: maskSecrets equals every pattern run on generated strings, secrets of each pattern included', () => {
  registerSecretValue(REGISTERED);
  const next = random(12);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
  const patterns = Object.keys(SECRETS);
  const masked = new Map(patterns.map((name) => [name, 0]));
  let skipped = 0;
  for (let i = 0; i < 40_000; i++) {
    const parts: string[] = [];
    const length = 1 + Math.floor(next() * 8);
    let secretOf: string | undefined;
    for (let j = 0; j < length; j++) {
      if (next() < 0.12) {
        secretOf = pick(patterns);
        parts.push(pick(SECRETS[secretOf]!));
      } else {
        parts.push(pick(PIECES));
      }
    }
    const text = parts.join(next() < 0.5 ? '' : ' ');
    const fast = maskSecrets(text);
    assert.equal(fast, maskSecretsEveryPattern(text), `differs on ${JSON.stringify(text)}`);
    if (fast === text && !/[:=]/.test(text)) skipped += 1;
    if (secretOf && fast !== text && fast.includes(MASK)) masked.set(secretOf, masked.get(secretOf)! + 1);
  }
  for (const [name, count] of masked) assert.ok(count > 100, `strings holding a ${name} secret were masked (${count})`);
  assert.ok(skipped > 1000, `many strings had nothing to mask (${skipped})`);
});

test('the pre-test keeps every known secret masked on its own and inside plain text', () => {
  registerSecretValue(REGISTERED);
  for (const secrets of Object.values(SECRETS)) {
    for (const secret of secrets) {
      for (const text of [secret, `call everything echo ${secret} done`, `${secret}\n`]) {
        const out = maskSecrets(text);
        assert.notEqual(out, text, `masked: ${JSON.stringify(text)}`);
        assert.equal(out, maskSecretsEveryPattern(text));
      }
    }
  }
  for (const plain of ['everything', 'read_file', '6f1c2d3e-aaaa-bbbb-cccc-1234567890ab', 'allowed', 'tokens 42'])
    assert.equal(maskSecrets(plain), plain);
});
