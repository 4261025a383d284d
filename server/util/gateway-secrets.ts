/**
 * The gateway's own credentials in its environment: the admin token that approves tool changes and
 * launches, the team store's URL (its password), PostgreSQL's own variables. No process the gateway
 * starts (a power's server, the child supervisor, a worker) inherits them, and no spell or imported
 * config can ask for them with `${VAR}`: they exist for the gateway alone.
 */
/** Read once by `serve` (admin-token.ts, open-store.ts), then no longer needed in its environment. */
export const READ_AT_START = ['GRIMOIRE_ADMIN_TOKEN', 'GRIMOIRE_ADMIN_TOKEN_FILE', 'GRIMOIRE_DATABASE_URL'];
/** PostgreSQL's client reads these itself whenever it connects: kept in the gateway, given to no one else. */
const GATEWAY_SECRETS = [...READ_AT_START, 'PGPASSWORD', 'PGPASSFILE', 'PGSERVICEFILE', 'PGSSLKEY'];

export function isGatewaySecret(name: string): boolean {
  return GATEWAY_SECRETS.includes(process.platform === 'win32' ? name.toUpperCase() : name);
}

/** A copy of `env` without the gateway's own credentials. */
export function withoutGatewaySecrets<T extends Record<string, string | undefined>>(env: T): T {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isGatewaySecret(name))) as T;
}
