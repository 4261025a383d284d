import { resolvePaths } from '../../shared/grimoire-paths.js';
import { errorMessage } from '../log.js';
import { isDamage } from '../store/damaged-file.js';
import { SqliteStore } from '../store/sqlite-store.js';
import { databaseUrl, openStore } from '../store/open-store.js';
import type { RuntimeOptions } from '../runtime.js';
import type { Store } from '../store/store.js';

/**
 * Runs a command on the data dir's store alone: no power is started, no gateway, no resolver or
 * embedder, no token worker, no discovery (safe while a gateway runs on the same dir; on the sql.js
 * fallback, which one process at a time can use, such a command is refused instead). `access`:
 * 'writes' checks the whole database file first, as the gateway does at its start; 'reads' (a
 * command that writes nothing) does not (StoreOptions.verify). Settings and spells are loaded by
 * the commands that need them (server/runtime-parts.ts).
 */
export async function withStore<T>(
  options: RuntimeOptions,
  access: 'reads' | 'writes',
  run: (store: Store) => T | Promise<T>,
): Promise<T> {
  const env = options.env ?? process.env;
  const paths = resolvePaths(env, options.workspaceFolder);
  const store = await openStore({
    dataDir: paths.data,
    databaseUrl: databaseUrl(options.databaseUrl, env),
    verify: access === 'writes',
  });
  try {
    return await run(store);
  } catch (error) {
    if (access === 'reads' && store instanceof SqliteStore && isDamage(error)) {
      throw new Error(
        `${store.file} is damaged (${errorMessage(error)}): the next 'grimoire serve', ` +
          `or a command that writes, moves it aside whole and starts a new one.`,
      );
    }
    throw error;
  } finally {
    await store.close();
  }
}
