/**
 * semantic_search: passages, not whole artifacts. The artifacts whose call or summary match, and
 * the most recent ones, are cut into passages (passages.ts) and ranked together; a passage's
 * relevance blends its own with its artifact's, so an artifact found only by its summary still
 * offers its opening passage.
 */
import type { EmbeddingCache } from '../../text/embedding-cache.js';
import type { ArtifactOwner, ArtifactRecord, ArtifactStore } from '../artifacts/artifact-store.js';
import { searchArtifacts, type SearchOutcome } from './artifact-search.js';
import { rankPassages, type Passage } from './passages.js';

export interface PassageHit {
  record: ArtifactRecord;
  passage: Passage;
}

export type PassageSearchOutcome = SearchOutcome<PassageHit>;

const ARTIFACT_CANDIDATES = 12;
const RECENT = 20;
/** Raw text read for one search; past it, older artifacts are left to their summaries. */
const MAX_CHARS = 8_000_000;
const ARTIFACT_WEIGHT = 0.3;

export async function searchPassages(
  artifacts: ArtifactStore,
  query: string,
  limit: number,
  owner: ArtifactOwner,
  embeddings?: EmbeddingCache,
): Promise<PassageSearchOutcome> {
  const live = await artifacts.live(1_000, owner);
  const byArtifact = await searchArtifacts(live, query, ARTIFACT_CANDIDATES, embeddings);
  const artifactRelevance = new Map(byArtifact.hits.map((hit) => [hit.record.id, hit.relevance]));
  const candidates = [
    ...new Map([...byArtifact.hits.map((hit) => hit.record), ...live.slice(0, RECENT)].map((r) => [r.id, r])).values(),
  ];
  const docs: Array<{ id: string; raw: string }> = [];
  let chars = 0;
  for (const record of candidates) {
    const raw = await artifacts.readRaw(record.id, owner);
    if (raw === undefined || chars + raw.length > MAX_CHARS) continue;
    chars += raw.length;
    docs.push({ id: record.id, raw });
  }
  const { mode, passages } = await rankPassages(docs, query, embeddings);
  const records = new Map(candidates.map((r) => [r.id, r]));
  const seen = new Set(passages.map((p) => p.artifactId));
  const blended = passages.map((p) => ({
    ...p,
    relevance: round(
      (1 - ARTIFACT_WEIGHT) * p.relevance + ARTIFACT_WEIGHT * (artifactRelevance.get(p.artifactId) ?? 0),
    ),
  }));
  // Found by its call or summary, with no passage matching the words: its opening passage.
  for (const doc of docs) {
    const relevance = artifactRelevance.get(doc.id);
    if (relevance === undefined || seen.has(doc.id)) continue;
    const end = Math.min(doc.raw.length, 600);
    blended.push({
      artifactId: doc.id,
      start: 0,
      end,
      text: doc.raw.slice(0, end),
      relevance: round(ARTIFACT_WEIGHT * relevance),
    });
  }
  blended.sort((a, b) => b.relevance - a.relevance || a.start - b.start);
  return {
    mode: byArtifact.mode === 'semantic' ? 'semantic' : mode,
    hits: blended.slice(0, limit).map((passage) => ({ record: records.get(passage.artifactId)!, passage })),
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
