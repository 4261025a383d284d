/**
 * What every store does alike around its own writes and reads: one op is a batch of one, a batch
 * is validated and its secrets masked before anything is written, a closed store refuses use, and
 * a query that can wait is the query itself unless the store says otherwise (PostgreSQL).
 */
import type { Row, Schema, SqlValue, WriteOp } from './ops.js';
import type { Store } from './store-interface.js';

export abstract class StoreBase implements Pick<Store, 'write' | 'writeMany' | 'query' | 'read'> {
  protected closed = false;

  abstract writeMany(ops: WriteOp[]): void;
  abstract query<T = Row>(sql: string, params?: SqlValue[]): T[];

  write(op: WriteOp): void {
    this.writeMany([op]);
  }

  /** `query`, answered at once. */
  async read<T = Row>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    return this.query<T>(sql, params);
  }

  /** The batch as it is written (see Schema.prepareBatch): empty when there is nothing to write; throws once closed. */
  protected prepared(schema: Schema, ops: WriteOp[]): WriteOp[] {
    this.assertOpen();
    return schema.prepareBatch(ops);
  }

  protected assertOpen(): void {
    if (this.closed) throw new Error('store: closed');
  }
}
