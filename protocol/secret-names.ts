/** Which env keys and header names hold a secret: the gateway masks their values, routing keeps them out of spell files. No imports. */

const SECRET_WORDS = new Set([
  'key', 'apikey', 'token', 'secret', 'password', 'passwd', 'pwd', 'passphrase', 'auth', 'oauth', 'authorization',
  'credential', 'credentials', 'cookie', 'cookies', 'bearer', 'pat', 'privatekey', 'accesskey',
]);
const SECRET_ENDINGS = ['token', 'secret', 'password', 'passwd', 'apikey', 'credential', 'credentials', 'cookie', 'privatekey', 'accesskey'];

/** True for names like API_KEY, githubToken, x-api-key, Authorization, Set-Cookie, DB_PASSWORD. */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.some((word) => SECRET_WORDS.has(word) || /^auth(?!or)/.test(word) || SECRET_ENDINGS.some((end) => word.endsWith(end)));
}

