/**
 * The result cache. By default it never skips a call: an identical result (same power, tool and
 * content hash) reuses its earlier summary instead of summarizing again. Exact: only for a tool a
 * spell marks `cache: { ttlSeconds: N }`, the same canonical arguments (sorted-key JSON) within N
 * seconds, made by this gateway process after the power's last non-read-only call, reuse the stored
 * summary without calling the server. Similar: an earlier result of the same tool whose text embeds
 * within the similarity threshold lends its summary wording (never skipping a call).
 */
import type { EmbeddingCache } from '../../text/embedding-cache.js';
import { cosine } from '../../text/vector.js';
import type { Store } from '../../store/store.js';
import { shortHash, stableJson } from '../../../shared/hash.js';
import type { ArtifactOwner, ArtifactRecord, ArtifactStore } from '../artifacts/artifact-store.js';
import type { Summary, SummaryBody } from '../summary.js';

const WRITES = 'intel_power_writes';
const SIMILAR_CANDIDATES = 30;
const SAME_RESULTS = 500;

/** A summary already made for a result with the same content. */
export interface SameResult {
  body: SummaryBody;
  summarizer: Summary['metadata']['summarizer'];
  artifactId: string;
}
/** Characters of a result that are embedded to compare results. */
export const FINGERPRINT_CHARS = 1_500;

export function canonicalArgs(args: Record<string, unknown>): string {
  return stableJson(args);
}

export function argsHash(args: Record<string, unknown>): string {
  return shortHash(canonicalArgs(args), 32);
}

export function fingerprintOf(power: string, tool: string, raw: string): string {
  return `${power} ${tool}\n${raw.slice(0, FINGERPRINT_CHARS)}`;
}

export class ResultCache {
  private readonly writes = new Map<string, number>();
  private readonly sameResults = new Map<string, SameResult>();

  constructor(
    private readonly store: Store,
    private readonly artifacts: ArtifactStore,
    private readonly embeddings: EmbeddingCache | undefined,
  ) {}

  /** The live summary of an identical earlier call made after `notBefore` and the power's last write. */
  exact(
    power: string,
    tool: string,
    args: Record<string, unknown>,
    notBefore: number,
    owner: ArtifactOwner,
  ): Promise<ArtifactRecord | undefined> {
    return this.artifacts.findExact(power, tool, argsHash(args), Math.max(notBefore, this.lastWrite(power)), owner);
  }

  /** The key of a result's content: what makes two results identical. */
  contentKey(power: string, tool: string, raw: string): string {
    return shortHash([power, '\u0000', tool, '\u0000', raw], 32);
  }

  /** The summary made earlier (in this process) for an identical result, if any. */
  sameResult(key: string): SameResult | undefined {
    return this.sameResults.get(key);
  }

  rememberResult(key: string, same: SameResult): void {
    this.sameResults.delete(key);
    this.sameResults.set(key, same);
    if (this.sameResults.size > SAME_RESULTS) this.sameResults.delete(this.sameResults.keys().next().value!);
  }

  /**
   * A non-read-only call may change what read-only ones return: earlier cached results of the
   * power stop counting, at once in this process; in the store (for the others) once the artifact
   * rows say the power has live read-only results, resolving then.
   */
  async noteWrite(power: string, at: number): Promise<void> {
    if (at <= (this.writes.get(power) ?? 0)) return;
    this.writes.set(power, at);
    if (!(await this.artifacts.hasLiveReads(power))) return;
    // The latest write this process knows of, should a later one have been noted meanwhile.
    this.store.write({ op: 'upsert', table: WRITES, row: { power, at: Math.max(at, this.writes.get(power) ?? 0) } });
  }

  lastWrite(power: string): number {
    const stored = this.store.query<{ at: number }>(`SELECT at FROM ${WRITES} WHERE power = ?`, [power])[0]?.at ?? 0;
    return Math.max(stored, this.writes.get(power) ?? 0);
  }

  /** The most similar live earlier result of the same tool above the threshold; undefined without a model. */
  async similar(
    power: string,
    tool: string,
    fingerprint: string,
    threshold: number,
    owner: ArtifactOwner,
  ): Promise<{ record: ArtifactRecord; similarity: number } | undefined> {
    if (!this.embeddings) return undefined;
    const candidates = (await this.artifacts.live(SIMILAR_CANDIDATES, owner, { power, tool })).filter(
      (c) => c.fingerprint,
    );
    if (candidates.length === 0) return undefined;
    const vectors = await this.embeddings.vectorsFor([fingerprint, ...candidates.map((c) => c.fingerprint)]);
    const mine = vectors?.[0];
    if (!vectors || !mine) return undefined;
    let best: { record: ArtifactRecord; similarity: number } | undefined;
    candidates.forEach((record, i) => {
      const vector = vectors[i + 1];
      if (!vector) return;
      const similarity = cosine(mine, vector);
      if (similarity > threshold && (!best || similarity > best.similarity)) best = { record, similarity };
    });
    return best;
  }
}
