import { sqlJsEngine, type SqlEngine } from '../../server/store/sql-engine.js';

/** better-sqlite3's engine, or why it does not load here (then a test on it is skipped with that reason). */
export async function nativeEngineOrReason(): Promise<SqlEngine | string> {
  try {
    const { nativeEngine } = await import('../../server/store/native-sqlite.js');
    return await nativeEngine();
  } catch (error) {
    return `better-sqlite3 does not load here: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

/** Both engines by name; the native one as the reason it is missing where it does not load. */
export async function storeEngines(): Promise<Array<[string, SqlEngine | string]>> {
  return [
    ['sql.js', await sqlJsEngine()],
    ['better-sqlite3', await nativeEngineOrReason()],
  ];
}
