/**
 * Full raw results kept for a while: one row in `intel_artifacts` (what the call was, its summary)
 * and one file `<dataDir>/artifacts/<id>.txt` (the raw text), or, when the store spans machines
 * (PostgreSQL), one row in `artifact_bodies` (store-files.ts) that every replica reads. Rows expire
 * after the TTL; the bodies together stay under a size cap, the oldest evicted first. A failed write (disk full, read-only
 * folder) never fails the call: `save` says why nothing was stored. The rows are read where the
 * store keeps them (`Store.read`: on PostgreSQL, the database; they come and go with use).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage, logger } from '../../log.js';
import type { Store } from '../../store/store.js';
import type { IntelSettings } from '../../config/intel-settings.js';
import type { Summary } from '../summary.js';
import { storeFiles, type ArtifactFiles } from './store-files.js';

const log = logger('intel');
const TABLE = 'intel_artifacts';
/** Files without a row (a crash between file and row) are removed after this long. */
const ORPHAN_GRACE_MS = 10 * 60_000;
/** Rows read at a time when evicting. */
const EVICT_PAGE = 500;

/** Whose stored results these are: a team user's name, or '' for calls with no user (stdio, the gateway's own token). */
export type ArtifactOwner = string;

export interface ArtifactRecord {
  id: string;
  /** The user whose call stored it ('' for none): only that owner reads, searches or reuses it. */
  owner: ArtifactOwner;
  at: number;
  expiresAt: number;
  power: string;
  tool: string;
  argsHash: string;
  args: string;
  readOnly: boolean;
  summary: Summary;
  summarizer: string;
  rawBytes: number;
  rawChars: number;
  /** Short text embedded to find similar results (the head of the raw text). */
  fingerprint: string;
  /** What search matches: the call and its summary. */
  searchText: string;
  /** For tools with an output schema: the structured content a summary of this result carries (see structured-content.ts). */
  structured?: unknown;
}

/** One owner's stored results, as the artifact tools read them: another owner's are not there. */
export interface OwnedArtifacts {
  readonly ttlMs: number;
  get(id: string): Promise<(ArtifactRecord & { expired: boolean }) | undefined>;
  readRaw(id: string): Promise<string | undefined>;
}

export type SaveOutcome = { stored: true } | { stored: false; reason: string };

export type { ArtifactFiles } from './store-files.js';

export const nodeFiles: ArtifactFiles = {
  write(file, text) {
    // Raw results can hold anything a tool returned: readable by the user only.
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temp, text, { mode: 0o600 });
      fs.renameSync(temp, file);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
  },
  read: async (file) => fs.readFileSync(file, 'utf8'),
  remove: (file) => fs.rmSync(file, { force: true }),
  list: async (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []),
  mtime: async (file) => fs.statSync(file).mtimeMs,
};

type Row = {
  id: string;
  at: number;
  expires_at: number;
  power: string;
  tool: string;
  args_hash: string;
  args: string;
  read_only: number;
  summary: string;
  summarizer: string;
  raw_bytes: number;
  raw_chars: number;
  file: string;
  fingerprint: string;
  search_text: string;
  structured: string | null;
  owner: string | null;
};

/** The owner test in SQL: NULL (no user) and '' are the same owner. */
const OWNED = "COALESCE(owner, '') = ?";

export function newArtifactId(): string {
  return `art_${randomBytes(6).toString('hex')}`;
}

export class ArtifactStore {
  readonly dir: string;
  /** Per power, the latest expiry of its live read-only artifacts (0: none), as of a table version. */
  private readonly liveReads = new Map<string, { version: number; until: number }>();

  constructor(
    private readonly store: Store,
    private readonly settings: () => IntelSettings['artifacts'],
    private readonly now: () => number = Date.now,
    private readonly files: ArtifactFiles = store.spansMachines ? storeFiles(store, now) : nodeFiles,
  ) {
    this.dir = path.join(store.dataDir, 'artifacts');
  }

  get ttlMs(): number {
    return this.settings().ttlMinutes * 60_000;
  }

  ownedBy(owner: ArtifactOwner): OwnedArtifacts {
    return { ttlMs: this.ttlMs, get: (id) => this.get(id, owner), readRaw: (id) => this.readRaw(id, owner) };
  }

  /** Stores the raw text under the record's id, making room first; says why when it cannot. */
  async save(record: Omit<ArtifactRecord, 'expiresAt'>, raw: string): Promise<SaveOutcome> {
    const cap = this.settings().maxBytes;
    if (record.rawBytes > cap)
      return { stored: false, reason: `it is larger than the artifact store's cap (${cap} bytes)` };
    try {
      await this.sweep({ orphans: false });
      await this.evictFor(record.rawBytes, cap);
    } catch (error) {
      log.warn(`artifact eviction failed: ${errorMessage(error)}`);
    }
    const file = `${record.id}.txt`;
    try {
      this.files.write(path.join(this.dir, file), raw);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      log.warn(`could not store artifact ${record.id}: ${errorMessage(error)}`);
      return {
        stored: false,
        reason:
          code === 'ENOSPC' ? 'the disk is full' : `the file could not be written (${code ?? errorMessage(error)})`,
      };
    }
    try {
      this.store.write({
        op: 'upsert',
        table: TABLE,
        row: toRow({ ...record, expiresAt: record.at + this.ttlMs }, file),
      });
    } catch (error) {
      this.removeFile(file);
      log.warn(`could not record artifact ${record.id}: ${errorMessage(error)}`);
      return { stored: false, reason: `the store could not record it (${errorMessage(error)})` };
    }
    return { stored: true };
  }

  /** The owner's record, expired or not; undefined when it never existed, was evicted, or is another owner's. */
  async get(id: string, owner: ArtifactOwner): Promise<(ArtifactRecord & { expired: boolean }) | undefined> {
    const [row] = await this.store.read<Row>(`SELECT * FROM ${TABLE} WHERE id = ? AND ${OWNED}`, [id, owner]);
    if (!row) return undefined;
    const record = fromRow(row);
    return record ? { ...record, expired: record.expiresAt <= this.now() } : undefined;
  }

  /** The raw text of the owner's live artifact; undefined when its file is gone or it is another owner's. */
  async readRaw(id: string, owner: ArtifactOwner): Promise<string | undefined> {
    const [row] = await this.store.read<{ file: string }>(`SELECT file FROM ${TABLE} WHERE id = ? AND ${OWNED}`, [
      id,
      owner,
    ]);
    if (!row) return undefined;
    try {
      return await this.files.read(path.join(this.dir, row.file));
    } catch {
      return undefined;
    }
  }

  /** The owner's newest live artifact of the same call (power, tool, canonical args) made after `since`. */
  async findExact(
    power: string,
    tool: string,
    argsHash: string,
    since: number,
    owner: ArtifactOwner,
  ): Promise<ArtifactRecord | undefined> {
    const rows = await this.store.read<Row>(
      `SELECT * FROM ${TABLE} WHERE power = ? AND tool = ? AND args_hash = ? AND expires_at > ? AND at > ? ` +
        `AND ${OWNED} ORDER BY at DESC LIMIT 1`,
      [power, tool, argsHash, this.now(), since, owner],
    );
    return rows.map(fromRow).find((r) => r !== undefined);
  }

  /** The owner's live artifacts, newest first; of one tool when given. */
  async live(limit: number, owner: ArtifactOwner, of?: { power: string; tool: string }): Promise<ArtifactRecord[]> {
    const rows = of
      ? await this.store.read<Row>(
          `SELECT * FROM ${TABLE} WHERE power = ? AND tool = ? AND expires_at > ? AND ${OWNED} ORDER BY at DESC LIMIT ?`,
          [of.power, of.tool, this.now(), owner, limit],
        )
      : await this.store.read<Row>(
          `SELECT * FROM ${TABLE} WHERE expires_at > ? AND ${OWNED} ORDER BY at DESC LIMIT ?`,
          [this.now(), owner, limit],
        );
    return rows.map(fromRow).filter((r): r is ArtifactRecord => r !== undefined);
  }

  /** True when a live artifact of a read-only call to this power exists (a write must then invalidate it). */
  async hasLiveReads(power: string): Promise<boolean> {
    // Kept while the table is unchanged: time passing only ends artifacts, so "none" stays true,
    // and "until" (the latest expiry) says how long "some" does.
    const version = this.store.tableVersion?.(TABLE);
    const known = this.liveReads.get(power);
    const now = this.now();
    if (version !== undefined && known?.version === version && now < known.until) return true;
    if (version !== undefined && known?.version === version && known.until === 0) return false;
    const until =
      (
        await this.store.read<{ until: number | null }>(
          `SELECT MAX(expires_at) AS until FROM ${TABLE} WHERE power = ? AND read_only = 1 AND expires_at > ?`,
          [power, now],
        )
      )[0]?.until ?? 0;
    if (version !== undefined) this.liveReads.set(power, { version, until });
    return until > 0;
  }

  async usage(): Promise<{ count: number; bytes: number }> {
    const [row] = await this.store.read<{ n: number; bytes: number | null }>(
      `SELECT COUNT(*) AS n, SUM(raw_bytes) AS bytes FROM ${TABLE}`,
    );
    return { count: row?.n ?? 0, bytes: row?.bytes ?? 0 };
  }

  /**
   * Removes expired artifacts, and (unless told not to) files no row names, those after the call
   * (`orphansSwept` resolves then); returns how many artifacts went.
   */
  async sweep(options: { orphans?: boolean } = {}): Promise<number> {
    const expired = await this.store.read<{ id: string; file: string }>(
      `SELECT id, file FROM ${TABLE} WHERE expires_at <= ?`,
      [this.now()],
    );
    this.remove(expired);
    if (options.orphans !== false) {
      this.orphansSwept = this.removeOrphans().catch((error) =>
        log.debug(`orphaned artifact files not removed: ${errorMessage(error)}`),
      );
    }
    return expired.length;
  }

  /** The last sweep's removal of orphaned files. */
  orphansSwept: Promise<void> = Promise.resolve();

  private async evictFor(bytes: number, cap: number): Promise<void> {
    let { bytes: used } = await this.usage();
    if (used + bytes <= cap) return;
    const victims: Array<{ id: string; file: string }> = [];
    // The oldest first, a page at a time: enough of them to make room, not the whole table.
    for (let offset = 0; used + bytes > cap; offset += EVICT_PAGE) {
      const page = await this.store.read<{ id: string; file: string; raw_bytes: number }>(
        `SELECT id, file, raw_bytes FROM ${TABLE} ORDER BY at ASC, id LIMIT ? OFFSET ?`,
        [EVICT_PAGE, offset],
      );
      for (const row of page) {
        if (used + bytes <= cap) break;
        victims.push(row);
        used -= row.raw_bytes;
      }
      if (page.length < EVICT_PAGE) break;
    }
    if (victims.length) log.info(`evicting ${victims.length} artifact(s) to stay under ${cap} bytes`);
    this.remove(victims);
  }

  private remove(rows: Array<{ id: string; file: string }>): void {
    if (rows.length === 0) return;
    this.store.writeMany(rows.map((row) => ({ op: 'delete' as const, table: TABLE, where: { id: row.id } })));
    for (const row of rows) this.removeFile(row.file);
  }

  private async removeOrphans(): Promise<void> {
    let names: string[];
    try {
      names = (await this.files.list(this.dir)).filter((name) => name.endsWith('.txt'));
    } catch {
      return;
    }
    if (names.length === 0) return;
    const known = new Set((await this.store.read<{ file: string }>(`SELECT file FROM ${TABLE}`)).map((r) => r.file));
    for (const name of names) {
      if (known.has(name)) continue;
      try {
        if (this.now() - (await this.files.mtime(path.join(this.dir, name))) > ORPHAN_GRACE_MS) this.removeFile(name);
      } catch {
        // gone already
      }
    }
  }

  private removeFile(file: string): void {
    try {
      this.files.remove(path.join(this.dir, file));
    } catch (error) {
      log.debug(`could not remove ${file}: ${errorMessage(error)}`);
    }
  }
}

function toRow(record: ArtifactRecord, file: string): Row {
  return {
    id: record.id,
    at: record.at,
    expires_at: record.expiresAt,
    power: record.power,
    tool: record.tool,
    args_hash: record.argsHash,
    args: record.args,
    read_only: record.readOnly ? 1 : 0,
    summary: JSON.stringify(record.summary),
    summarizer: record.summarizer,
    raw_bytes: record.rawBytes,
    raw_chars: record.rawChars,
    file,
    fingerprint: record.fingerprint,
    search_text: record.searchText,
    structured: record.structured === undefined ? null : JSON.stringify(record.structured),
    owner: record.owner === '' ? null : record.owner,
  };
}

function fromRow(row: Row): ArtifactRecord | undefined {
  let summary: Summary;
  let structured: unknown;
  try {
    summary = JSON.parse(row.summary) as Summary;
    structured = row.structured ? (JSON.parse(row.structured) as unknown) : undefined;
  } catch {
    return undefined;
  }
  return {
    id: row.id,
    owner: row.owner ?? '',
    at: row.at,
    expiresAt: row.expires_at,
    power: row.power,
    tool: row.tool,
    argsHash: row.args_hash,
    args: row.args,
    readOnly: row.read_only === 1,
    summary,
    summarizer: row.summarizer,
    rawBytes: row.raw_bytes,
    rawChars: row.raw_chars,
    fingerprint: row.fingerprint,
    searchText: row.search_text,
    ...(structured !== undefined ? { structured } : {}),
  };
}
