/**
 * Which env keys and header names hold a secret, and which values are tokens by their shape: the gateway
 * masks them, routing keeps them out of spell files. No imports.
 */

const SECRET_WORDS = new Set([
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'auth',
  'oauth',
  'authorization',
  'credential',
  'credentials',
  'cookie',
  'cookies',
  'bearer',
  'pat',
  'privatekey',
  'accesskey',
]);
const SECRET_ENDINGS = [
  'token',
  'secret',
  'password',
  'passwd',
  'apikey',
  'credential',
  'credentials',
  'cookie',
  'privatekey',
  'accesskey',
];

/** True for names like API_KEY, githubToken, x-api-key, Authorization, Set-Cookie, DB_PASSWORD. */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some(
    (word) => SECRET_WORDS.has(word) || /^auth(?!or)/.test(word) || SECRET_ENDINGS.some((end) => word.endsWith(end)),
  );
}

/** Common token shapes that carry their own meaning: GitHub, Slack, OpenAI, AWS, JWT. */
export const TOKEN_SHAPES =
  /\b(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})\b/g;

/** The value holds a token of a well-known shape, whatever the name it is given under. */
export function hasTokenShape(value: string): boolean {
  TOKEN_SHAPES.lastIndex = 0;
  return TOKEN_SHAPES.test(value);
}
