/**
 * The literal secrets of an mcp.json entry, taken out before the entry becomes a spell in the
 * workspace: values of env keys and headers whose names name a secret, `--token=...` and
 * `--api-key ...` arguments, a URL's password and its secret-named query values, and any env,
 * header or argument value holding a token of a well-known shape (`ghp_...`, `sk-...`, a JWT). Each is handed to
 * `store`, which keeps it elsewhere and returns what the spell says instead (`${secret:NAME}`).
 * A value that is only `${...}` references (and an auth scheme word) is no literal and stays.
 * No `vscode` import.
 */
import { hasTokenShape, isSecretName, TOKEN_SHAPES } from '../shared/secret-names.js';

export type StoreSecret = (name: string, value: string) => string;

/** Something besides `${...}` references and an auth scheme word is written out: a literal. */
function isLiteral(value: string): boolean {
  return (
    value
      .replace(/\$\{[^}]*\}/g, '')
      .replace(/\b(Bearer|Basic|Token)\b/gi, '')
      .trim() !== ''
  );
}

function safeName(name: string): string {
  return name.replace(/^-+/, '').replace(/[^A-Za-z0-9_.-]/g, '_') || 'secret';
}

/** The entry with each literal secret replaced by what `store` returns for it. */
export function withSecretRefs(config: Record<string, unknown>, store: StoreSecret): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const field of ['env', 'headers'] as const) {
    const values = config[field];
    if (typeof values !== 'object' || values === null || Array.isArray(values)) continue;
    out[field] = Object.fromEntries(
      Object.entries(values as Record<string, unknown>).map(([name, value]) => [
        name,
        typeof value === 'string' && (isSecretName(name) || hasTokenShape(value)) && isLiteral(value)
          ? store(safeName(name), value)
          : value,
      ]),
    );
  }
  if (Array.isArray(config.args)) out.args = argsWithRefs(config.args, store);
  if (typeof config.url === 'string') out.url = urlWithRefs(config.url, store);
  return out;
}

/** A token of a well-known shape inside an argument: only the token is replaced. */
const TOKEN = new RegExp(TOKEN_SHAPES.source, 'g');
const FLAG = /^(--?[A-Za-z][A-Za-z0-9_-]*)$/;
const FLAG_VALUE = /^(--?[A-Za-z][A-Za-z0-9_-]*)=(.+)$/s;

function argsWithRefs(args: unknown[], store: StoreSecret): unknown[] {
  return args.map((arg, i) => {
    if (typeof arg !== 'string') return arg;
    const pair = FLAG_VALUE.exec(arg);
    if (pair && isSecretName(pair[1]!) && isLiteral(pair[2]!))
      return `${pair[1]}=${store(safeName(pair[1]!), pair[2]!)}`;
    const flag = typeof args[i - 1] === 'string' ? FLAG.exec(args[i - 1] as string) : null;
    if (flag && isSecretName(flag[1]!) && !arg.startsWith('-') && isLiteral(arg)) return store(safeName(flag[1]!), arg);
    if (hasTokenShape(arg)) return arg.replace(TOKEN, (token) => store(`arg${i}`, token));
    return arg;
  });
}

function urlWithRefs(url: string, store: StoreSecret): string {
  // scheme://user:password@host: the password.
  let out = url.replace(
    /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:/?#@]*:)([^\s/?#@]+)@/,
    (whole, head: string, password: string) =>
      isLiteral(password) ? `${head}${store('url-password', password)}@` : whole,
  );
  // ?api_key=...&token=...: the secret-named values.
  out = out.replace(/([?&])([^=&#]+)=([^&#]*)/g, (whole, sep: string, name: string, value: string) =>
    isSecretName(name) && value && isLiteral(value) ? `${sep}${name}=${store(safeName(name), value)}` : whole,
  );
  return out;
}
