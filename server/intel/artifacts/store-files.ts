/**
 * Artifact bodies kept in the store's `artifact_bodies` table instead of files under one machine's
 * data dir: for a store that spans machines (PostgreSQL), so that every replica reads what another
 * stored. Files are named by their base name (the folder is each replica's own). Read when asked
 * for, in the database (a replica holds no body in memory).
 */
import * as path from 'node:path';
import type { Store } from '../../store/store-interface.js';

const TABLE = 'artifact_bodies';
/** What PostgreSQL text cannot hold as is: NUL, and a surrogate without its pair. */
const NOT_PG_TEXT = /\u0000|\p{Surrogate}/u;

export function storeFiles(store: Store, now: () => number = Date.now): ArtifactFiles {
  return {
    write(file, text) {
      const json = NOT_PG_TEXT.test(text);
      store.write({
        op: 'upsert',
        table: TABLE,
        row: {
          file: path.basename(file),
          body: json ? JSON.stringify(text) : text,
          encoding: json ? 'json' : 'text',
          at: now(),
        },
      });
    },
    async read(file) {
      const row = (
        await store.read<{ body: string; encoding: string }>(`SELECT body, encoding FROM ${TABLE} WHERE file = ?`, [
          path.basename(file),
        ])
      )[0];
      if (!row) throw Object.assign(new Error(`no stored body for ${path.basename(file)}`), { code: 'ENOENT' });
      return row.encoding === 'json' ? (JSON.parse(row.body) as string) : row.body;
    },
    remove(file) {
      store.write({ op: 'delete', table: TABLE, where: { file: path.basename(file) } });
    },
    list: async () => (await store.read<{ file: string }>(`SELECT file FROM ${TABLE}`)).map((row) => row.file),
    async mtime(file) {
      const row = (
        await store.read<{ at: number }>(`SELECT at FROM ${TABLE} WHERE file = ?`, [path.basename(file)])
      )[0];
      if (!row) throw Object.assign(new Error(`no stored body for ${path.basename(file)}`), { code: 'ENOENT' });
      return row.at;
    },
  };
}

/**
 * The file operations the store needs; tests swap them to simulate a full disk. What reads a body
 * or lists them can wait: a store that spans machines reads them in the database when asked for.
 */
export interface ArtifactFiles {
  write(file: string, text: string): void;
  read(file: string): Promise<string>;
  remove(file: string): void;
  list(dir: string): Promise<string[]>;
  mtime(file: string): Promise<number>;
}
