import { randomUUID } from 'node:crypto';
import type { Tool } from '../util/mcp-types.js';
import type { Store, WriteOp } from '../store/store.js';
import { boundedWords, type ServerWords } from '../powers/server-words.js';
import { toolHash } from '../trust/pins.js';
import { shortHash } from '../../shared/hash.js';

export interface CatalogTool {
  power: string;
  name: string;
  description?: string;
  inputSchema: Tool['inputSchema'];
  annotations?: Tool['annotations'];
  /** The tool as its server listed it; absent for a row kept before definitions were. */
  definition?: Tool;
  hash: string;
  firstSeen: number;
  lastSeen: number;
}

/** The tool as an MCP client lists it: its definition as listed, else the parts kept before definitions were. */
export function asTool(tool: CatalogTool): Tool {
  return (
    tool.definition ?? {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
    }
  );
}

export interface CatalogChange {
  tool: string;
  kind: 'added' | 'changed' | 'removed';
}

interface ToolRow {
  power: string;
  tool: string;
  description: string | null;
  input_schema: string;
  annotations: string | null;
  definition: string | null;
  hash: string;
  first_seen: number;
  last_seen: number;
}

/**
 * Every power's tools as last seen, kept in the store so the resolver can rank powers that are not
 * running. Each tool carries a hash of what the agent sees of it, so a changed description or
 * schema is detected and recorded in `catalog_changes`.
 */
export class Catalog {
  private generation = 0;

  constructor(private readonly store: Store) {}

  /** Bumps on every change: a cheap key for caches built on the catalog. */
  get version(): number {
    return this.generation;
  }

  /** `protocolVersion`: the revision the server spoke when it listed them. */
  record(
    power: string,
    tools: Tool[],
    now = Date.now(),
    words: ServerWords = {},
    protocolVersion?: string,
  ): CatalogChange[] {
    const before = new Map(this.rows(power).map((row) => [row.tool, row]));
    const ops: WriteOp[] = [];
    const changes: CatalogChange[] = [];
    for (const tool of tools) {
      const hash = toolHash(tool);
      const previous = before.get(tool.name);
      before.delete(tool.name);
      if (previous?.hash !== hash) {
        const kind = previous ? 'changed' : 'added';
        changes.push({ tool: tool.name, kind });
        ops.push(changeOp(power, tool.name, kind, previous?.hash ?? null, hash, now));
      }
      ops.push({
        op: 'upsert',
        table: 'catalog_tools',
        row: {
          power,
          tool: tool.name,
          description: tool.description ?? null,
          input_schema: JSON.stringify(tool.inputSchema),
          annotations: tool.annotations ? JSON.stringify(tool.annotations) : null,
          definition: JSON.stringify(tool),
          hash,
          first_seen: previous?.first_seen ?? now,
          last_seen: now,
        },
      });
    }
    for (const gone of before.values()) {
      changes.push({ tool: gone.tool, kind: 'removed' });
      ops.push(changeOp(power, gone.tool, 'removed', gone.hash, null, now));
      ops.push({ op: 'delete', table: 'catalog_tools', where: { power, tool: gone.tool } });
    }
    const toolsHash = shortHash(tools.map(toolHash).sort().join(','));
    const said = boundedWords(words);
    ops.push({
      op: 'upsert',
      table: 'catalog_powers',
      row: {
        power,
        tools_hash: toolsHash,
        tool_count: tools.length,
        refreshed_at: now,
        server_title: said.title ?? null,
        server_description: said.description ?? null,
        instructions: said.instructions ?? null,
        protocol_version: protocolVersion ?? null,
      },
    });
    this.store.writeMany(ops);
    if (changes.length > 0) this.generation += 1;
    return changes;
  }

  tools(power: string): CatalogTool[] {
    return this.rows(power).map(fromRow);
  }

  /** Every cached tool, grouped by power. */
  all(): Map<string, CatalogTool[]> {
    const grouped = new Map<string, CatalogTool[]>();
    for (const row of this.store.query<ToolRow>('SELECT * FROM catalog_tools ORDER BY power, tool')) {
      const list = grouped.get(row.power) ?? [];
      list.push(fromRow(row));
      grouped.set(row.power, list);
    }
    return grouped;
  }

  /** The protocol revision each listed power's server spoke at its last listing. */
  protocolVersions(): Map<string, string> {
    const rows = this.store.query<{ power: string; protocol_version: string | null }>(
      'SELECT power, protocol_version FROM catalog_powers WHERE protocol_version IS NOT NULL',
    );
    return new Map(rows.map((row) => [row.power, row.protocol_version!]));
  }

  /** What each listed power's server said of itself at its last listing. */
  words(): Map<string, ServerWords> {
    const rows = this.store.query<{
      power: string;
      server_title: string | null;
      server_description: string | null;
      instructions: string | null;
    }>('SELECT power, server_title, server_description, instructions FROM catalog_powers');
    return new Map(
      rows.map((row) => [
        row.power,
        {
          title: row.server_title ?? undefined,
          description: row.server_description ?? undefined,
          instructions: row.instructions ?? undefined,
        },
      ]),
    );
  }

  /** Some of the power's tools were kept without their definition (before definitions were): its next listing completes them. */
  lacksDefinitions(power: string): boolean {
    return (
      this.store.query('SELECT 1 FROM catalog_tools WHERE power = ? AND definition IS NULL LIMIT 1', [power]).length > 0
    );
  }

  /** When the power's tools were last listed, or undefined if never. */
  refreshedAt(power: string): number | undefined {
    const [row] = this.store.query<{ refreshed_at: number }>(
      'SELECT refreshed_at FROM catalog_powers WHERE power = ?',
      [power],
    );
    return row?.refreshed_at;
  }

  /** The power's change history (it grows with every change seen: read where it is kept). */
  changes(power: string): Promise<Array<CatalogChange & { at: number }>> {
    return this.store.read<CatalogChange & { at: number }>(
      'SELECT tool, kind, at FROM catalog_changes WHERE power = ? ORDER BY at, id',
      [power],
    );
  }

  private rows(power: string): ToolRow[] {
    return this.store.query<ToolRow>('SELECT * FROM catalog_tools WHERE power = ? ORDER BY tool', [power]);
  }
}

function changeOp(
  power: string,
  tool: string,
  kind: CatalogChange['kind'],
  oldHash: string | null,
  newHash: string | null,
  at: number,
): WriteOp {
  return {
    op: 'insert',
    table: 'catalog_changes',
    row: { id: randomUUID(), power, tool, kind, old_hash: oldHash, new_hash: newHash, at },
  };
}

function fromRow(row: ToolRow): CatalogTool {
  return {
    power: row.power,
    name: row.tool,
    description: row.description ?? undefined,
    inputSchema: JSON.parse(row.input_schema) as Tool['inputSchema'],
    annotations: row.annotations ? (JSON.parse(row.annotations) as Tool['annotations']) : undefined,
    ...(row.definition ? { definition: JSON.parse(row.definition) as Tool } : {}),
    hash: row.hash,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
  };
}
