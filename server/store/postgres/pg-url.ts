/**
 * The database URL is a secret (it may hold a password): everything that names it uses the masked
 * form, and connection errors are turned into messages that say what to fix without echoing it.
 */

/** `postgres://user:***@host:port/db`: the password (and any query string) hidden. */
export function maskDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** An error that means "the database cannot be reached right now" (retry), not "this is wrong". */
export function isConnectionError(error: unknown): boolean {
  const code = String((error as { code?: unknown })?.code ?? '');
  if (CONNECTION_CODES.has(code)) return true;
  // 08: connection exception; 57P01-57P03: admin shutdown, crash shutdown, cannot connect now; 53300: too many connections.
  if (/^08/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
  const message = String((error as Error)?.message ?? '');
  return /Connection terminated|connection timeout|Query read timeout|Client has encountered a connection error|not queryable/i.test(
    message,
  );
}

/** A message for a failed connection that names the masked URL and never the password. */
export function describeConnectionError(error: unknown, url: string, secret = passwordOf(url)): string {
  const code = String((error as { code?: unknown })?.code ?? '');
  const where = maskDatabaseUrl(url);
  if (code === '28P01' || code === '28000')
    return `PostgreSQL at ${where} refused the login (wrong user name or password): check the database URL.`;
  if (code === '3D000')
    return `PostgreSQL at ${where}: the database does not exist; create it (createdb) or fix the URL.`;
  if (code === 'ECONNREFUSED') return `PostgreSQL at ${where} is not accepting connections (is it running?).`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `PostgreSQL host of ${where} cannot be resolved.`;
  const raw = String((error as Error)?.message ?? error);
  return `PostgreSQL at ${where}: ${secret ? raw.split(secret).join('***') : raw}`;
}

function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}
