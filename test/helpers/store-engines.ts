import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeSqliteEngine } from '../../server/store/node-sqlite.js';
import type { SqlEngine } from '../../server/store/sql-engine.js';
import { node22 } from './node22.js';
import { repoRoot } from './temp.js';

/** Why a loader failed, in one line, for t.skip. */
const reason = (what: string, error: unknown) =>
  `${what} does not load here: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;

/** better-sqlite3's engine, or why it does not load here (then a test on it is skipped with that reason). */
export async function nativeEngineOrReason(): Promise<SqlEngine | string> {
  try {
    const { nativeEngine } = await import('../../server/store/native-sqlite.js');
    return await nativeEngine();
  } catch (error) {
    return reason('better-sqlite3', error);
  }
}

/** node:sqlite's engine in this process (where its node:sqlite has what the store needs), or why not. */
export async function nodeSqliteEngineOrReason(): Promise<SqlEngine | string> {
  try {
    return nodeSqliteEngine();
  } catch (error) {
    return reason('node:sqlite', error);
  }
}

/**
 * A Node that has node:sqlite, to run a child on: this one if it has it, else GRIMOIRE_TEST_NODE22,
 * else the Node 22 from npm under .vscode-test/; or why there is none.
 */
export function nodeWithSqlite(): { node: string } | { reason: string } {
  try {
    nodeSqliteEngine();
    return { node: process.execPath };
  } catch {
    // this Node has no node:sqlite, or one without what the store needs: look for another
  }
  for (const candidate of [process.env.GRIMOIRE_TEST_NODE22, node22.binary]) {
    if (candidate && fs.existsSync(candidate)) return { node: candidate };
  }
  return {
    reason:
      `node:sqlite with what the store needs is not in this Node (${process.version}), ` +
      `and neither GRIMOIRE_TEST_NODE22 nor ${path.relative(repoRoot, node22.binary)} (.ci/run ` +
      `installs it) is there`,
  };
}
