import { Store, type EmbeddedStore } from '../../server/store/store.js';
import { tempDir } from './temp.js';

/** A Store on a fresh temp data dir (no fsync), closed and removed after the test. */
export async function tempStore(t: {
  after(fn: () => void): void;
}): Promise<{ store: EmbeddedStore; dataDir: string }> {
  const dir = tempDir();
  const store = await Store.open({ dataDir: dir.dir, fsync: false });
  t.after(() => {
    store.close();
    dir.cleanup();
  });
  return { store, dataDir: dir.dir };
}
