import { EventEmitter } from 'node:events';
import type { Tool } from '../util/mcp-types.js';
import type { Store, WriteOp } from '../store/store.js';
import { PolledTable } from '../store/polled-table.js';
import { toolHash } from './pins.js';

/** A tool the user confirmed only reads, and the version of it they confirmed. */
export interface ReadConfirmation {
  power: string;
  tool: string;
  hash: string;
  confirmedAt: number;
}

interface Row {
  power: string;
  tool: string;
  hash: string;
  confirmed_at: number;
}

/**
 * The user's one-time confirmations that a tool with no read/write annotation only reads (table
 * `read_confirmations`). Each is pinned to the tool's hash: a tool that changed reads as unconfirmed
 * until the user confirms it again. Decided only by the user (the editor's tool review, `grimoire
 * tools confirm-read`, the admin token over REST), never through MCP. Another process's decisions
 * are picked up by polling the store.
 */
export class ReadConfirmations extends EventEmitter<{ change: [] }> {
  private readonly confirmed: PolledTable<string>;
  private readonly hashes = new WeakMap<Tool, string>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.confirmed = new PolledTable(
      store,
      'read_confirmations',
      () => new Map(this.list().map((row) => [key(row.power, row.tool), row.hash])),
      (hash) => hash,
      () => this.emit('change'),
    );
  }

  /** The user confirmed this very version of the tool as read-only. */
  isConfirmed(power: string, tool: Tool): boolean {
    const hash = this.confirmed.get(key(power, tool.name));
    return hash !== undefined && hash === this.hashOf(tool);
  }

  /** A confirmation exists for the tool, of another version than `tool` (it changed since). */
  isStale(power: string, tool: Tool): boolean {
    const hash = this.confirmed.get(key(power, tool.name));
    return hash !== undefined && hash !== this.hashOf(tool);
  }

  /** Confirms these versions of the power's tools as read-only. */
  confirm(power: string, tools: Array<{ name: string; hash: string }>): void {
    const at = this.now();
    this.write(
      tools.map((tool) => ({
        op: 'upsert',
        table: 'read_confirmations',
        row: { power, tool: tool.name, hash: tool.hash, confirmed_at: at },
      })),
    );
  }

  /** Takes a confirmation back; false when there was none. */
  revoke(power: string, tool: string): boolean {
    if (!this.confirmed.has(key(power, tool))) return false;
    this.write([{ op: 'delete', table: 'read_confirmations', where: { power, tool } }]);
    return true;
  }

  list(): ReadConfirmation[] {
    return this.store
      .query<Row>('SELECT power, tool, hash, confirmed_at FROM read_confirmations ORDER BY power, tool')
      .map((row) => ({ power: row.power, tool: row.tool, hash: row.hash, confirmedAt: row.confirmed_at }));
  }

  /** Reads the confirmations again when the table moved; emits 'change' when they differ. */
  poll(): void {
    this.confirmed.poll();
  }

  close(): void {
    this.confirmed.close();
  }

  private write(ops: WriteOp[]): void {
    if (ops.length === 0) return;
    this.store.writeMany(ops);
    this.poll();
  }

  private hashOf(tool: Tool): string {
    let hash = this.hashes.get(tool);
    if (hash === undefined) {
      hash = toolHash(tool);
      this.hashes.set(tool, hash);
    }
    return hash;
  }
}

const key = (power: string, tool: string) => `${power}\u0000${tool}`;
