/**
 * Passages of stored results, ranked for a query: each raw text cut into chunks of about
 * PASSAGE_CHARS at line (or, in long lines, at separator) boundaries, scored by BM25 over their
 * words, blended with embedding similarity for the best of them when the model is ready.
 */
import { Bm25fIndex } from '../../text/bm25f.js';
import type { EmbeddingCache } from '../../text/embedding-cache.js';
import { cosine } from '../../text/vector.js';
import { terms } from '../../text/terms.js';
import { lastIndexWithin } from '../../util/bounded-lines.js';

export interface Passage {
  artifactId: string;
  /** Character range in the artifact's raw text: [start, end). */
  start: number;
  end: number;
  text: string;
  relevance: number;
}

export const PASSAGE_CHARS = 700;
/** Passages embedded per query (the best lexical ones): embedding is the slow part. */
const SEMANTIC_CANDIDATES = 48;
const SEMANTIC_WEIGHT = 0.5;

/** Chunk boundaries: lines gathered up to `size` characters; a longer line cut after a separator. */
export function chunkRanges(raw: string, size = PASSAGE_CHARS): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let start = 0;
  while (start < raw.length) {
    let end = Math.min(raw.length, start + size);
    if (end < raw.length) {
      const newline = lastIndexWithin(raw, '\n', start + size / 4 + 1, end);
      if (newline > start + size / 4) end = newline + 1;
      else {
        // One long line (minified JSON, a log line): cut after the last separator in the window.
        const window = raw.slice(start + size / 2, end);
        const cut = Math.max(
          window.lastIndexOf('},'),
          window.lastIndexOf('],'),
          window.lastIndexOf(', '),
          window.lastIndexOf(' '),
        );
        if (cut >= 0) end = start + size / 2 + cut + 2;
      }
    }
    ranges.push([start, end]);
    start = end;
  }
  return ranges;
}

export async function rankPassages(
  docs: Array<{ id: string; raw: string }>,
  query: string,
  embeddings?: EmbeddingCache,
): Promise<{ mode: 'semantic' | 'lexical'; passages: Passage[] }> {
  const passages: Passage[] = docs.flatMap((doc) =>
    chunkRanges(doc.raw).map(([start, end]) => ({
      artifactId: doc.id,
      start,
      end,
      text: doc.raw.slice(start, end),
      relevance: 0,
    })),
  );
  if (passages.length === 0) return { mode: embeddings ? 'semantic' : 'lexical', passages };
  const index = new Bm25fIndex({ text: { weight: 1, b: 0.5 } });
  index.build(passages.map((p, i) => ({ id: String(i), fields: { text: terms(p.text) } })));
  const scored = index.score([...new Set(terms(query))].map((term) => ({ term, weight: 1 })));
  const top = Math.max(0, ...scored.map((s) => s.score));
  for (const s of scored) passages[Number(s.id)]!.relevance = top > 0 ? s.score / top : 0;

  let mode: 'semantic' | 'lexical' = 'lexical';
  const queryVector = embeddings ? await embeddings.queryVector(query) : undefined;
  if (embeddings && queryVector) {
    const byLexical = [...passages].sort((a, b) => b.relevance - a.relevance);
    // The best lexical passages, and, when few words matched, passages spread over the texts.
    const spread = passages.filter((_, i) => i % Math.max(1, Math.ceil(passages.length / SEMANTIC_CANDIDATES)) === 0);
    const candidates = [
      ...new Set([...byLexical.filter((p) => p.relevance > 0).slice(0, SEMANTIC_CANDIDATES / 2), ...spread]),
    ].slice(0, SEMANTIC_CANDIDATES);
    const vectors = await embeddings.vectorsFor(candidates.map((p) => p.text));
    if (vectors) {
      mode = 'semantic';
      candidates.forEach((p, i) => {
        const vector = vectors[i];
        if (vector)
          p.relevance =
            (1 - SEMANTIC_WEIGHT) * p.relevance + SEMANTIC_WEIGHT * Math.max(0, cosine(queryVector, vector));
      });
    }
  }
  const ranked = passages.filter((p) => p.relevance > 0).sort((a, b) => b.relevance - a.relevance || a.start - b.start);
  for (const p of ranked) p.relevance = Math.round(p.relevance * 1000) / 1000;
  return { mode, passages: ranked };
}
