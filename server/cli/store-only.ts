import { resolvePaths } from '../../protocol/grimoire-paths.js';
import { databaseUrl, openStore } from '../store/open-store.js';
import type { RuntimeOptions } from '../runtime.js';
import type { Store } from '../store/store.js';

/**
 * Runs a read-only command on the data dir's store alone: no power is started, no gateway, no
 * resolver or embedder, no token worker, no discovery (safe while a gateway runs on the same dir;
 * on the sql.js fallback, which one process at a time can use, such a command is refused instead).
 * Settings and spells are loaded by the commands that need them (server/runtime-parts.ts).
 */
export async function withStore<T>(options: RuntimeOptions, run: (store: Store) => T | Promise<T>): Promise<T> {
  const env = options.env ?? process.env;
  const paths = resolvePaths(env, options.workspaceFolder);
  const store = await openStore({ dataDir: paths.data, databaseUrl: databaseUrl(options.databaseUrl, env) });
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
