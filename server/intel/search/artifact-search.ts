/**
 * Search over the live artifacts' calls and summaries: BM25F over their words always, blended
 * with embedding similarity when the model is ready (semantic mode); lexical alone otherwise.
 */
import { Bm25fIndex } from '../../text/bm25f.js';
import type { EmbeddingCache } from '../../text/embedding-cache.js';
import { cosine } from '../../text/vector.js';
import { terms } from '../../text/terms.js';
import type { ArtifactRecord } from '../artifacts/artifact-store.js';

export interface SearchHit {
  record: ArtifactRecord;
  relevance: number;
}

export interface SearchOutcome<Hit = SearchHit> {
  mode: 'semantic' | 'lexical';
  hits: Hit[];
}

/** Characters of an artifact's search text that are embedded. */
const EMBED_CHARS = 1_000;
const SEMANTIC_WEIGHT = 0.75;
const MIN_SEMANTIC = 0.25;

/** The words search matches for an artifact: what was called and what its summary says. */
export function searchTextOf(
  power: string,
  tool: string,
  canonicalArgs: string,
  findings: string[],
  insights: string[],
): string {
  return [`${power} ${tool} ${canonicalArgs.slice(0, 300)}`, ...findings, ...insights].join('\n');
}

export async function searchArtifacts(
  records: ArtifactRecord[],
  query: string,
  limit: number,
  embeddings?: EmbeddingCache,
): Promise<SearchOutcome> {
  if (records.length === 0) return { mode: embeddings ? 'semantic' : 'lexical', hits: [] };
  const lexical = lexicalScores(records, query);
  const semantic = embeddings ? await semanticScores(records, query, embeddings) : undefined;
  const hits: SearchHit[] = [];
  records.forEach((record, i) => {
    const lex = lexical[i]!;
    const sem = semantic?.[i];
    const relevance = semantic
      ? sem === undefined
        ? lex
        : SEMANTIC_WEIGHT * Math.max(0, sem) + (1 - SEMANTIC_WEIGHT) * lex
      : lex;
    const matched = lex > 0 || (sem !== undefined && sem >= MIN_SEMANTIC);
    if (matched) hits.push({ record, relevance: Math.round(relevance * 1000) / 1000 });
  });
  hits.sort((a, b) => b.relevance - a.relevance || b.record.at - a.record.at);
  return { mode: semantic ? 'semantic' : 'lexical', hits: hits.slice(0, limit) };
}

/** BM25F scores squashed to 0..1 (s / (s + 2)). */
function lexicalScores(records: ArtifactRecord[], query: string): number[] {
  const index = new Bm25fIndex({ call: { weight: 2, b: 0.3 }, summary: { weight: 1, b: 0.75 } });
  index.build(
    records.map((record) => {
      const [call = '', ...rest] = record.searchText.split('\n');
      const ids = Object.values(record.summary.identifiers ?? {}).join(' ');
      return { id: record.id, fields: { call: terms(call), summary: terms(`${rest.join(' ')} ${ids}`) } };
    }),
  );
  const scores = new Map(
    index.score([...new Set(terms(query))].map((term) => ({ term, weight: 1 }))).map((s) => [s.id, s.score]),
  );
  return records.map((record) => {
    const score = scores.get(record.id) ?? 0;
    return score / (score + 2);
  });
}

/** Cosine of each artifact to the query; undefined while the model is not ready. */
async function semanticScores(
  records: ArtifactRecord[],
  query: string,
  embeddings: EmbeddingCache,
): Promise<Array<number | undefined> | undefined> {
  const queryVector = await embeddings.queryVector(query);
  if (!queryVector) return undefined;
  const vectors = await embeddings.vectorsFor(records.map((record) => record.searchText.slice(0, EMBED_CHARS)));
  if (!vectors) return undefined;
  return vectors.map((vector) => (vector ? cosine(queryVector, vector) : undefined));
}
