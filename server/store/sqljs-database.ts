/** sql.js's Database behind the store's surface (sql-surface.ts): rows as objects, statements freed. */
import type { Database, Statement } from 'sql.js';
import type { ImageDatabase, SqlRow, SqlStatement } from './sql-surface.js';
import type { SqlValue } from './write-op.js';

class SqlJsStatement implements SqlStatement {
  constructor(private readonly statement: Statement) {}

  all(params: SqlValue[]): SqlRow[] {
    const rows: SqlRow[] = [];
    try {
      this.statement.bind(params);
      // The column names once per run, not once per row as `getAsObject` reads them.
      let names: string[] | undefined;
      while (this.statement.step()) {
        names ??= this.statement.getColumnNames();
        const values = this.statement.get();
        const row: SqlRow = {};
        for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
        rows.push(row);
      }
    } finally {
      this.statement.reset();
    }
    return rows;
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
