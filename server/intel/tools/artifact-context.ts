/**
 * get_artifact_context: each artifact's summary, then excerpts of its raw text sharing what is left
 * of the budget, the whole text counted with the real tokenizer and trimmed until it fits.
 */
import type { CallToolResult } from '../../util/mcp-types.js';
import type { OwnedArtifacts } from '../artifacts/artifact-store.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import { ageOf, lookUpArtifact } from './artifact-lookup.js';

interface Part {
  id: string;
  header: string;
  summary: string;
  raw: string;
  rawTokens: number;
  excerpt: string;
  excerptTokens: number;
}

const FIT_ROUNDS = 6;
/** Tokens for an excerpt's heading line. */
const EXCERPT_OVERHEAD = 30;

export async function artifactContext(
  artifacts: OwnedArtifacts,
  tokenizer: Tokenizer,
  ids: string[],
  maxTokens: number,
  now: number,
  note?: string,
): Promise<CallToolResult> {
  const missing: Array<{ id: string; problem: string }> = [];
  const parts: Part[] = [];
  for (const id of [...new Set(ids)]) {
    const found = await lookUpArtifact(artifacts, id);
    if (!found.ok) {
      missing.push({ id: found.id, problem: found.problem });
      continue;
    }
    const { record, raw } = found;
    const { metadata: _metadata, ...summary } = record.summary;
    parts.push({
      id,
      header: `## ${id} · ${record.power}:${record.tool} · ${ageOf(now - record.at)} ago · ${raw.length} characters`,
      summary: `Summary: ${JSON.stringify(summary)}`,
      raw,
      rawTokens: 0,
      excerpt: '',
      excerptTokens: 0,
    });
  }
  const missingText = [...(note ? [note] : []), ...missing.map((m) => `Not available (${m.id}): ${m.problem}`)];
  if (parts.length === 0)
    return answer(missingText.join('\n'), { max_tokens: maxTokens, used_tokens: 0, artifacts: [], missing }, true);

  const rawCounts = await tokenizer.count(parts.map((p) => p.raw));
  parts.forEach((p, i) => (p.rawTokens = rawCounts[i]!));
  // Summaries take at most half the budget, so that some of the text itself always comes too.
  const summaryCap = Math.floor(maxTokens / 2 / parts.length);
  const summaryCounts = await tokenizer.count(parts.map((p) => p.summary));
  for (const [i, part] of parts.entries())
    if (summaryCounts[i]! > summaryCap)
      part.summary = `${(await tokenizer.head(part.summary, Math.max(20, summaryCap - 4))).text} …`;

  // Summaries first, in the order asked; those that do not fit are cut, then left out.
  const fixed = await tokenizer.count([...missingText, ...parts.flatMap((p) => [p.header, p.summary])]);
  let left = maxTokens - fixed.slice(0, missingText.length).reduce((a, b) => a + b, 0) - 8;
  const included: Part[] = [];
  for (const [i, part] of parts.entries()) {
    const cost = fixed[missingText.length + 2 * i]! + fixed[missingText.length + 2 * i + 1]! + 4;
    if (cost <= left) {
      included.push(part);
      left -= cost;
    } else if (left > 40) {
      part.summary = (await tokenizer.head(part.summary, left - fixed[missingText.length + 2 * i]! - 8)).text + ' …';
      included.push(part);
      left = 0;
    } else missing.push({ id: part.id, problem: 'left out: the token budget was spent on the artifacts before it' });
  }

  // Excerpts share the rest evenly; what one does not need goes to the others.
  let pool = Math.max(0, left - EXCERPT_OVERHEAD * included.length);
  let open = included.filter((p) => p.rawTokens > 0);
  while (pool > 0 && open.length > 0) {
    const share = Math.floor(pool / open.length);
    if (share === 0) break;
    const next: Part[] = [];
    for (const part of open) {
      const give = Math.min(part.rawTokens - part.excerptTokens, share);
      part.excerptTokens += give;
      pool -= give;
      if (part.excerptTokens < part.rawTokens) next.push(part);
    }
    // Nobody finished: every share is final. Otherwise what the finished ones left goes round again.
    if (next.length === open.length) break;
    open = next;
  }

  let text = '';
  let used = 0;
  for (let round = 0; round < FIT_ROUNDS; round++) {
    for (const part of included)
      part.excerpt = part.excerptTokens > 0 ? (await tokenizer.head(part.raw, part.excerptTokens)).text : '';
    text = render(included, missing, note);
    used = (await tokenizer.count([text]))[0]!;
    if (used <= maxTokens) break;
    // Over by the cost of joins and headers: take it from the largest excerpt.
    const largest = [...included].sort((a, b) => b.excerptTokens - a.excerptTokens)[0];
    if (!largest || largest.excerptTokens === 0) {
      text = (await tokenizer.head(text, maxTokens)).text;
      used = (await tokenizer.count([text]))[0]!;
      break;
    }
    largest.excerptTokens = Math.max(0, largest.excerptTokens - (used - maxTokens) - 4);
  }
  return answer(text, {
    max_tokens: maxTokens,
    used_tokens: used,
    tokenizer: tokenizer.name,
    artifacts: included.map((p) => ({
      id: p.id,
      excerpt_chars: p.excerpt.length,
      total_chars: p.raw.length,
      complete: p.excerpt.length >= p.raw.length,
      ...(p.excerpt.length < p.raw.length ? { next_offset: p.excerpt.length } : {}),
    })),
    missing,
  });
}

function render(parts: Part[], missing: Array<{ id: string; problem: string }>, note?: string): string {
  const blocks = parts.map((p) => {
    const lines = [p.header, p.summary];
    if (p.excerpt) {
      const rest = p.raw.length - p.excerpt.length;
      lines.push(
        rest > 0
          ? `Excerpt (characters 0-${p.excerpt.length}; ${rest} more: read_artifact({"id":"${p.id}","offset":${p.excerpt.length}})):`
          : 'Full text:',
      );
      lines.push(p.excerpt);
    }
    return lines.join('\n');
  });
  for (const m of missing) blocks.push(`Not available (${m.id}): ${m.problem}`);
  if (note) blocks.unshift(note);
  return blocks.join('\n\n');
}

function answer(text: string, meta: Record<string, unknown>, isError = false): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: meta, ...(isError ? { isError: true } : {}) };
}
