/** sql.js's Database behind the store's surface (sql-surface.ts): rows as plain objects, statements freed. */
import type { Database, Statement } from 'sql.js';
import { objectsOf, type ImageDatabase, type SqlRow, type SqlStatement } from './sql-surface.js';
import type { SqlValue } from './write-op.js';

class SqlJsStatement implements SqlStatement {
  constructor(private readonly statement: Statement) {}

  all(params: SqlValue[]): SqlRow[] {
    const values: unknown[][] = [];
    try {
      this.statement.bind(params);
      while (this.statement.step()) values.push(this.statement.get());
      return objectsOf(this.statement.getColumnNames(), values);
    } finally {
      this.statement.reset();
    }
  }

  run(params: SqlValue[]): void {
    this.statement.run(params);
  }

  free(): void {
    this.statement.free();
  }
}

export class SqlJsDatabase implements ImageDatabase {
  constructor(private readonly db: Database) {}

  exec(sql: string): void {
    this.db.exec(sql);
  }

  prepare(sql: string): SqlJsStatement {
    return new SqlJsStatement(this.db.prepare(sql));
  }

  export(): Uint8Array {
    return this.db.export();
  }

  close(): void {
    this.db.close();
  }
}
