/**
 * Vectors for catalog texts, kept in the store's `embeddings` table under a hash of model + text,
 * so a text is embedded again only when it (or the model) changes. Query vectors live in memory.
 */
import { errorMessage, logger } from '../log.js';
import type { Store } from '../store/store.js';
import { shortHash } from '../../shared/hash.js';
import { Lru } from '../util/lru.js';
import { fromBase64, toBase64 } from './vector.js';

const QUERY_CACHE_SIZE = 1_000;
/** Keys per SELECT, well under SQLite's bound-parameter limit. */
const LOOKUP_CHUNK = 500;
const SHA256_HEX = 64;
const log = logger('semantic');

export type EmbedderState = 'off' | 'idle' | 'loading' | 'ready' | 'unavailable';

/** The sentence-embedding model the cache asks for vectors (resolve/semantic/embedder.ts is the gateway's). */
export interface EmbeddingModel {
  /** Identifies the vectors this embedder makes (model + dtype); keys cached vectors. */
  readonly modelKey: string;
  status(): { state: EmbedderState };
  /** Starts loading if needed; true once the model is ready, false when it is off or unavailable. Never rejects. */
  ready(): Promise<boolean>;
  /** One vector per text, or undefined while the model is not ready (this starts loading it). */
  embed(texts: string[]): Promise<Float32Array[] | undefined>;
}

export interface EmbeddingCacheStats {
  /** Texts sent to the model (catalog texts and queries). */
  embedded: number;
  /** Catalog texts found in the store. */
  storeHits: number;
  /** Queries found in the in-memory cache. */
  queryHits: number;
}

export class EmbeddingCache {
  private readonly queries = new Lru<string, Float32Array>(QUERY_CACHE_SIZE);
  private readonly counters: EmbeddingCacheStats = { embedded: 0, storeHits: 0, queryHits: 0 };

  constructor(
    private readonly store: Store,
    private readonly embedder: EmbeddingModel,
  ) {}

  /**
   * One vector per text, in order. Undefined when semantic matching is off or unavailable; while
   * the model is still loading, texts not yet in the store come back undefined.
   */
  async vectorsFor(texts: string[]): Promise<(Float32Array | undefined)[] | undefined> {
    if (!this.usable()) return undefined;
    const keys = texts.map((text) => this.keyOf(text));
    const found = await this.lookUp([...new Set(keys)]);
    this.counters.storeHits += keys.filter((key) => found.has(key)).length;
    const missing = new Map<string, string>();
    keys.forEach((key, i) => {
      if (!found.has(key)) missing.set(key, texts[i]!);
    });
    if (missing.size > 0) {
      const vectors = await this.embedder.embed([...missing.values()]);
      if (vectors) {
        this.counters.embedded += vectors.length;
        const rows = [...missing.keys()].map((key, i) => ({ key, vector: vectors[i]! }));
        for (const { key, vector } of rows) found.set(key, vector);
        this.save(rows, Date.now());
      }
    }
    return keys.map((key) => found.get(key));
  }

  /** Resolves once the model is loaded (true) or cannot be had (false); starts loading it. Never rejects. */
  modelReady(): Promise<boolean> {
    return this.embedder.ready();
  }

  /** The query's vector, from memory when it was asked before; undefined while the model is not ready. */
  async queryVector(query: string): Promise<Float32Array | undefined> {
    if (!this.usable()) return undefined;
    const cached = this.queries.get(query);
    if (cached) {
      this.counters.queryHits++;
      return cached;
    }
    const vector = (await this.embedder.embed([query]))?.[0];
    if (!vector) return undefined;
    this.counters.embedded++;
    this.queries.set(query, vector);
    return vector;
  }

  stats(): EmbeddingCacheStats {
    return { ...this.counters };
  }

  private usable(): boolean {
    const { state } = this.embedder.status();
    return state !== 'off' && state !== 'unavailable';
  }

  private keyOf(text: string): string {
    return shortHash(`${this.embedder.modelKey}\0${text}`, SHA256_HEX);
  }

  /** A failed write costs a recomputation later, never this answer. */
  private save(rows: { key: string; vector: Float32Array }[], at: number): void {
    try {
      this.store.writeMany(
        rows.map(({ key, vector }) => ({
          op: 'upsert' as const,
          table: 'embeddings',
          row: { key, model: this.embedder.modelKey, dim: vector.length, vector: toBase64(vector), at },
        })),
      );
    } catch (error) {
      log.warn(`could not store ${rows.length} embeddings: ${errorMessage(error)}`);
    }
  }

  /** Read where the vectors are kept (they grow with every text embedded: not in a PostgreSQL replica's memory). */
  private async lookUp(keys: string[]): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    for (let start = 0; start < keys.length; start += LOOKUP_CHUNK) {
      const chunk = keys.slice(start, start + LOOKUP_CHUNK);
      const rows = await this.store.read<{ key: string; dim: number; vector: string }>(
        `SELECT key, dim, vector FROM embeddings WHERE key IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      );
      for (const row of rows) {
        const vector = fromBase64(row.vector);
        if (vector && vector.length === row.dim) found.set(row.key, vector);
      }
    }
    return found;
  }
}
