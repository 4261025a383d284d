/**
 * get_artifact_context with a query: the passages of the asked artifacts most relevant to it
 * (search/passages.ts), best first until the token budget is full, shown in document order with
 * the character range each comes from. Counted with the real tokenizer.
 */
import type { CallToolResult } from '../../util/mcp-types.js';
import type { EmbeddingCache } from '../../text/embedding-cache.js';
import type { ArtifactRecord, OwnedArtifacts } from '../artifacts/artifact-store.js';
import { rankPassages, type Passage } from '../search/passages.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import { ageOf, lookUpArtifact } from './artifact-lookup.js';
import { lastIndexWithin } from '../../util/bounded-lines.js';

/** Tokens of a passage's heading line and the blank line around it. */
const PASSAGE_OVERHEAD = 16;

export interface PassageContextRequest {
  ids: string[];
  maxTokens: number;
  query: string;
  now: number;
}

/** Undefined when no passage matches the query: the caller then answers without one. */
export async function passageContext(
  artifacts: OwnedArtifacts,
  tokenizer: Tokenizer,
  embeddings: EmbeddingCache | undefined,
  request: PassageContextRequest,
): Promise<CallToolResult | undefined> {
  const missing: Array<{ id: string; problem: string }> = [];
  const found: Array<{ id: string; record: ArtifactRecord; raw: string }> = [];
  for (const id of [...new Set(request.ids)]) {
    const lookup = await lookUpArtifact(artifacts, id);
    if (lookup.ok) found.push({ id, record: lookup.record, raw: lookup.raw });
    else missing.push({ id: lookup.id, problem: lookup.problem });
  }
  if (found.length === 0) return undefined;
  const { mode, passages } = await rankPassages(
    found.map((f) => ({ id: f.id, raw: f.raw })),
    request.query,
    embeddings,
  );
  if (passages.length === 0) return undefined;

  const headers = new Map(
    found.map((f) => [
      f.id,
      `## ${f.id} · ${f.record.power}:${f.record.tool} · ${ageOf(request.now - f.record.at)} ago · ` +
        `${f.raw.length} characters; passages for "${request.query}":`,
    ]),
  );
  const fixed = await tokenizer.count([
    FOOTER,
    ...headers.values(),
    ...missing.map((m) => `Not available (${m.id}): ${m.problem}`),
  ]);
  let left = request.maxTokens - fixed.reduce((a, b) => a + b, 0) - 8;
  const costs = await tokenizer.count(passages.map((p) => p.text));
  const rare = rarestWord(
    request.query,
    passages.map((p) => p.text.toLowerCase()),
  );
  let chosen: Passage[] = [];
  const raws = new Map(found.map((f) => [f.id, f.raw]));
  const overlaps = (p: Passage) =>
    chosen.some((c) => c.artifactId === p.artifactId && c.start < p.end && p.start < c.end);
  for (const [i, passage] of passages.entries()) {
    if (passage.relevance < MIN_RELEVANCE) break;
    if (overlaps(passage)) continue;
    const cost = costs[i]! + PASSAGE_OVERHEAD;
    if (cost <= left) {
      chosen.push(passage);
      left -= cost;
    } else if (chosen.length === 0 && left > 40) {
      // The best passage does not fit whole: the part around its rarest query word does.
      const focused = await focus(passage, rare, left - PASSAGE_OVERHEAD, tokenizer);
      chosen.push(focused);
      left -= (await tokenizer.count([focused.text]))[0]! + PASSAGE_OVERHEAD;
    }
  }
  // What is left goes to the continuations of the passages taken, best first: a record cut at a
  // passage's end goes on a little.
  for (const passage of [...chosen]) {
    const next = continuation(passage, raws.get(passage.artifactId)!);
    if (!next || overlaps(next)) continue;
    const cost = (await tokenizer.count([next.text]))[0]! + PASSAGE_OVERHEAD;
    if (cost > left) continue;
    chosen.push(next);
    left -= cost;
  }
  let text = render(
    found.map((f) => f.id),
    headers,
    chosen,
    missing,
  );
  let used = (await tokenizer.count([text]))[0]!;
  while (used > request.maxTokens && chosen.length > 1) {
    chosen = chosen.slice(0, -1);
    text = render(
      found.map((f) => f.id),
      headers,
      chosen,
      missing,
    );
    used = (await tokenizer.count([text]))[0]!;
  }
  if (used > request.maxTokens) {
    text = (await tokenizer.head(text, request.maxTokens)).text;
    used = (await tokenizer.count([text]))[0]!;
  }
  return {
    content: [{ type: 'text', text }],
    structuredContent: {
      query: request.query,
      mode,
      max_tokens: request.maxTokens,
      used_tokens: used,
      tokenizer: tokenizer.name,
      passages: chosen.map((p) => ({ id: p.artifactId, start: p.start, end: p.end, relevance: p.relevance })),
      matching_passages: passages.length,
      missing,
    },
  };
}

const FOOTER = 'More: read_artifact({"id": ..., "offset": <start>}) reads on from any passage.';

/** Passages below this relevance (of the best one's 1) do not fill the budget. */
const MIN_RELEVANCE = 0.05;

/** The query's word that the fewest passages contain (an id rather than "status"). */
function rarestWord(query: string, texts: string[]): string | undefined {
  const candidates = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_.-]*[\p{L}\p{N}]/gu) ?? [])].filter(
    (w) => w.length >= 3,
  );
  let best: { word: string; df: number } | undefined;
  for (const word of candidates) {
    const df = texts.filter((t) => t.includes(word)).length;
    if (df > 0 && (!best || df < best.df)) best = { word, df };
  }
  return best?.word;
}

/** The passage cut to `maxTokens`, starting a little before its rarest query word, at a line start. */
async function focus(
  passage: Passage,
  word: string | undefined,
  maxTokens: number,
  tokenizer: Tokenizer,
): Promise<Passage> {
  const hit = word ? passage.text.toLowerCase().indexOf(word) : -1;
  let from = 0;
  if (hit > 0) {
    const back = Math.max(0, hit - Math.round(maxTokens * 1.5));
    const lineStart = passage.text.lastIndexOf('\n', hit);
    from = lineStart >= back ? lineStart + 1 : back;
    if (lineStart < back) from = Math.max(0, passage.text.lastIndexOf('\n', back) + 1);
  }
  const head = await tokenizer.head(passage.text.slice(from), maxTokens);
  return { ...passage, start: passage.start + from, end: passage.start + from + head.text.length, text: head.text };
}

/** Characters after a passage that its continuation takes, ending at a line end. */
const CONTINUATION_CHARS = 300;

function continuation(passage: Passage, raw: string): Passage | undefined {
  if (passage.end >= raw.length) return undefined;
  let end = Math.min(raw.length, passage.end + CONTINUATION_CHARS);
  const newline = lastIndexWithin(raw, '\n', passage.end + 1, end);
  if (end < raw.length && newline > passage.end) end = newline + 1;
  return {
    artifactId: passage.artifactId,
    start: passage.end,
    end,
    text: raw.slice(passage.end, end),
    relevance: passage.relevance,
  };
}

function render(
  order: string[],
  headers: Map<string, string>,
  chosen: Passage[],
  missing: Array<{ id: string; problem: string }>,
): string {
  const blocks: string[] = [];
  for (const id of order) {
    const mine = chosen.filter((p) => p.artifactId === id).sort((a, b) => a.start - b.start);
    if (mine.length === 0) continue;
    blocks.push(
      [
        headers.get(id)!,
        ...mine.map((p) => `[characters ${p.start}-${p.end}, relevance ${p.relevance}]\n${p.text.trimEnd()}`),
      ].join('\n\n'),
    );
  }
  for (const m of missing) blocks.push(`Not available (${m.id}): ${m.problem}`);
  blocks.push(FOOTER);
  return blocks.join('\n\n');
}
