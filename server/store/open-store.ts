/**
 * Chooses the store's backend: PostgreSQL when a database URL is given (`--database` or
 * GRIMOIRE_DATABASE_URL), otherwise the embedded store of the data dir (store.ts).
 */
import { isPostgresUrl } from './postgres/pg-url.js';
import type { Store } from './store-interface.js';
import { Store as EmbeddedStore } from './store.js';

export const DATABASE_URL_ENV = 'GRIMOIRE_DATABASE_URL';

export interface OpenStoreOptions {
  dataDir: string;
  /** postgres://…; empty or undefined: the embedded store. */
  databaseUrl?: string;
  /** PostgreSQL unreachable at open: keep retrying this long (default 10 s). */
  connectForMs?: number;
  onRetry?: (message: string, nextDelayMs: number) => void;
  /** The embedded store: see StoreOptions.verify (PostgreSQL checks its own pages). */
  verify?: boolean;
}

/** The database URL of a command: the flag wins over the environment. */
export function databaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const url = flag ?? env[DATABASE_URL_ENV];
  return url ? url : undefined;
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (!options.databaseUrl) return EmbeddedStore.open({ dataDir: options.dataDir, verify: options.verify });
  if (!isPostgresUrl(options.databaseUrl))
    throw new Error(
      `the database URL must start with postgres:// or postgresql:// (got a value of ${options.databaseUrl.length} characters)`,
    );
  const { PgStore } = await import('./postgres/pg-store.js');
  return PgStore.open({
    url: options.databaseUrl,
    dataDir: options.dataDir,
    connectForMs: options.connectForMs,
    onRetry: options.onRetry,
  });
}
