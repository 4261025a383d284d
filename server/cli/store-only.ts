import { resolvePaths } from '../config/paths.js';
import type { RuntimeOptions } from '../runtime.js';
import { Store } from '../store/store.js';

/**
 * Runs a read-only command on the data dir's store alone: no power is started, no gateway, no
 * resolver or embedder, no token worker, no discovery (safe while a gateway runs on the same dir).
 * Settings and spells are loaded by the commands that need them (server/runtime-parts.ts).
 */
export async function withStore<T>(options: RuntimeOptions, run: (store: Store) => T | Promise<T>): Promise<T> {
  const paths = resolvePaths(options.env ?? process.env, options.workspaceFolder);
  const store = await Store.open({ dataDir: paths.data });
  try {
    return await run(store);
  } finally {
    store.close();
  }
}
