/**
 * What the two embedded stores (the database file, sqlite-store.ts; sql.js, sqljs-store.ts) do
 * alike: queries on their one connection, each table's version moved by this process's writes,
 * and group commit behind `durable()`.
 */
import type { StoreDatabase } from './database.js';
import type { GroupCommit } from './group-commit.js';
import type { Row, SqlValue, WriteOp } from './ops.js';
import { StoreBase } from './store-base.js';

export abstract class EmbeddedStoreBase extends StoreBase {
  /** Per table, bumped by this process's writes. */
  protected readonly tableVersions = new Map<string, number>();
  protected abstract readonly db: StoreDatabase;
  protected abstract readonly commits: GroupCommit;

  /** Read-only SQL over everything committed so far; a statement that changes rows throws. */
  query<T = Row>(sql: string, params: SqlValue[] = []): T[] {
    this.assertOpen();
    return this.db.all<T>(sql, params);
  }

  /** Resolves once every write made before the call is on stable storage: one sync for the writes of that moment. */
  durable(): Promise<void> {
    this.assertOpen();
    return this.commits.durable();
  }

  /** Syncs started so far (for benchmarks and tests). */
  get syncs(): number {
    return this.commits.syncs;
  }

  /** This process's ops are committed: their tables' versions move, and a sync is due. */
  protected written(ops: WriteOp[]): void {
    for (const op of ops) this.tableVersions.set(op.table, (this.tableVersions.get(op.table) ?? 0) + 1);
    this.commits.noteWrite();
  }
}
