/**
 * Masking by meaning, applied wherever text leaves the gateway (log, MCP error messages, events,
 * activity, JSON-RPC payloads, store writes): values of env keys and headers that name a secret,
 * `NAME=value` / `NAME: value` pairs whose NAME names a secret, bearer tokens, the password of a
 * URL's userinfo (`scheme://user:***@host`) and private keys (the whole PEM block; across lines
 * that arrive one at a time, `SecretLines`). A value's length alone never makes it a secret.
 */
import { isSecretName, TOKEN_SHAPES } from '../../shared/secret-names.js';

export { isSecretName };

export const MASK = '***';

const registered = new Set<string>();

/** A value that must be masked wherever it appears from now on (a secret-named env or header value, the endpoint token). */
export function registerSecretValue(value: string): void {
  if (value.trim().length >= 3) registered.add(value);
}

/** Registers the values of the secret-named entries of an env or header map. */
export function registerSecretEntries(entries: Record<string, string>): void {
  for (const [name, value] of Object.entries(entries)) if (isSecretName(name)) registerSecretValue(value);
}

/** A PEM private key block (RSA, EC, OPENSSH, ENCRYPTED, PGP ... BLOCK), whole; to the text's end when its END is not in it. */
const PRIVATE_KEY =
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*-----|$)/g;
const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*-----/;
const PRIVATE_KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*-----/;
/** `scheme://user:password@`: the password (a user alone, `https://user@host`, is not a secret). */
const URL_PASSWORD = /\b([A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s:/?#@]*:)([^\s/?#@]+)@/g;
const BEARER = /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{6,}/g;
/** NAME=value, NAME: value, "NAME": "value" (the name up to 64 characters, the value up to the next separator). */
const PAIR = /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,63})(["']?[ \t]*[:=][ \t]*["']?)([^\s"',;&{}[\]()<>]+)/g;

/**
 * A necessary condition of every pattern above: each match holds one of these literals (PAIR its
 * `:` or `=`, the others their literal start). A text holding none of them and no registered
 * value is one no pattern changes, so it is returned as it is without running them
 * (test/unit/secrets-pretest.test.ts checks that both paths agree).
 */
const ANY_PATTERN = /[:=]|-----BEGIN |Bearer|Basic|Token|gh[pousr]_|github_pat_|xox[abprs]-|sk-|AKIA|eyJ/;

export function maskSecrets(text: string): string {
  if (!text) return text;
  const out = maskRegistered(text);
  return out === text && !ANY_PATTERN.test(text) ? text : maskPatterns(out);
}

/** `maskSecrets` without the pre-test: every pattern runs (for the test that compares both paths). */
export function maskSecretsEveryPattern(text: string): string {
  return text ? maskPatterns(maskRegistered(text)) : text;
}

function maskRegistered(text: string): string {
  let out = text;
  for (const value of registered) if (out.includes(value)) out = out.split(value).join(MASK);
  return out;
}

function maskPatterns(text: string): string {
  let out = text.replace(PRIVATE_KEY, `${MASK}private key${MASK}`);
  if (out.includes('://'))
    out = out.replace(URL_PASSWORD, (match, head: string, password: string) =>
      password === MASK ? match : `${head}${MASK}@`,
    );
  out = out.replace(BEARER, (_match, scheme: string, space: string) => `${scheme}${space}${MASK}`);
  out = out.replace(TOKEN_SHAPES, MASK);
  return maskPairs(out);
}

/** NAME=value pairs; a pair whose NAME is not a secret is skipped past its name only, so `a: B_TOKEN=x` still finds B_TOKEN. */
function maskPairs(text: string): string {
  const pattern = new RegExp(PAIR.source, 'g');
  let out = '';
  let from = 0;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text))) {
    const [whole, name, separator, value] = match;
    if (isSecretName(name) && value !== MASK && !/^(Bearer|Basic|Token)$/i.test(value)) {
      out += text.slice(from, match.index) + name + separator + MASK;
      from = match.index + whole.length;
    } else {
      pattern.lastIndex = match.index + name.length + separator.length;
    }
  }
  return out + text.slice(from);
}

/** Masks every string inside a JSON-like value (objects, arrays). */
export function maskDeep<T>(value: T): T {
  return maskValue(value, 0) as T;
}

function maskValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => maskValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = maskValue(item, depth + 1);
  return out;
}

/**
 * Masks a stream of lines one line at a time (a child's stderr, its log messages): a line is
 * masked as `maskSecrets` does, and every line of a private key block, from its BEGIN line to its
 * END line, is masked whole although each line arrives alone.
 */
export class SecretLines {
  /** Lines of a key block still to mask; a block longer than any key (a BEGIN without END) ends here. */
  private keyLinesLeft = 0;

  mask(line: string): string {
    if (this.keyLinesLeft > 0) {
      this.keyLinesLeft = PRIVATE_KEY_END.test(line) ? 0 : this.keyLinesLeft - 1;
      return `${MASK}private key${MASK}`;
    }
    const begins = line.match(PRIVATE_KEY_BEGIN);
    if (begins && !PRIVATE_KEY_END.test(line.slice((begins.index ?? 0) + begins[0].length)))
      this.keyLinesLeft = MAX_KEY_LINES;
    return maskSecrets(line);
  }
}

/** More lines than the longest PEM private key (an 8192-bit RSA key has about 100). */
const MAX_KEY_LINES = 200;
