import type { Tool } from '../util/mcp-types.js';
import type { ServerWords } from '../powers/server-words.js';
import type { Store } from '../store/store.js';

/** How many launch definitions are remembered: the most recently listed ones. */
const KEPT = 100;

interface Row {
  tools: string;
  words: string | null;
}

/**
 * Each server's last tool list and words, by its launch definition (PowerDefinition.serverHash,
 * table `server_tool_lists`): a power started by the same definition under another name (a config
 * imported after a spell, a renamed entry) is ranked on it before its server is listed. Only for
 * ranking: every start lists the tools again and checks them against the power's pins.
 */
export class ServerToolLists {
  constructor(private readonly store: Store) {}

  remember(serverHash: string, tools: Tool[], words: ServerWords, now = Date.now()): void {
    this.store.write({
      op: 'upsert',
      table: 'server_tool_lists',
      row: { server_hash: serverHash, tools: JSON.stringify(tools), words: JSON.stringify(words), listed_at: now },
    });
    const [old] = this.store.query<{ listed_at: number }>(
      'SELECT listed_at FROM server_tool_lists ORDER BY listed_at DESC LIMIT 1 OFFSET ?',
      [KEPT],
    );
    if (old) {
      const gone = this.store.query<{ server_hash: string }>(
        'SELECT server_hash FROM server_tool_lists WHERE listed_at <= ?',
        [old.listed_at],
      );
      this.store.writeMany(
        gone.map((row) => ({ op: 'delete', table: 'server_tool_lists', where: { server_hash: row.server_hash } })),
      );
    }
  }

  /** The tools and words last listed from this launch definition, if any (a row that does not parse counts as none). */
  recall(serverHash: string): { tools: Tool[]; words: ServerWords } | undefined {
    const [row] = this.store.query<Row>('SELECT tools, words FROM server_tool_lists WHERE server_hash = ?', [
      serverHash,
    ]);
    if (!row) return undefined;
    try {
      const tools = JSON.parse(row.tools) as unknown;
      if (!Array.isArray(tools)) return undefined;
      return { tools: tools as Tool[], words: row.words ? (JSON.parse(row.words) as ServerWords) : {} };
    } catch {
      return undefined;
    }
  }
}
