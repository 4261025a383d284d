/** Answers read_artifact, get_artifact_context and semantic_search. */
import type { CallToolResult } from '../../util/mcp-types.js';
import { errorResult, jsonResult } from '../../calls/results.js';
import { describeArgsError } from '../../util/tool-args.js';
import { errorMessage } from '../../log.js';
import type { ArtifactOwner, OwnedArtifacts } from '../artifacts/artifact-store.js';
import type { Intel } from '../intel.js';
import { artifactContext } from './artifact-context.js';
import { passageContext } from './passage-context.js';
import { ageOf, lookUpArtifact } from './artifact-lookup.js';
import { artifactContextArgs, readArtifactArgs, semanticSearchArgs, type IntelToolName } from './intel-tools.js';
import { preview } from '../../../shared/preview.js';

/** `owner`: whose stored results the caller may see (Intel.ownerOf its session); another owner's are "not found". */
export async function handleIntelTool(
  intel: Intel,
  name: IntelToolName,
  args: Record<string, unknown>,
  owner: ArtifactOwner,
  now = intel.now(),
): Promise<CallToolResult> {
  // Only once the arguments are valid: an invalid call touches nothing.
  const artifacts = () => intel.artifacts.ownedBy(owner);
  try {
    switch (name) {
      case 'read_artifact': {
        const parsed = readArtifactArgs.safeParse(args);
        if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
        return await readArtifact(artifacts(), parsed.data.id, parsed.data.offset, parsed.data.limit);
      }
      case 'get_artifact_context': {
        const parsed = artifactContextArgs.safeParse(args);
        if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
        const { ids, maxTokens, query } = parsed.data;
        if (query) {
          const passages = await passageContext(artifacts(), intel.tokenizer, intel.embeddings, {
            ids,
            maxTokens,
            query,
            now,
          });
          if (passages) return passages;
        }
        return await artifactContext(
          artifacts(),
          intel.tokenizer,
          ids,
          maxTokens,
          now,
          query ? `No passage matches "${query}"; the summaries and the start of each text follow.` : undefined,
        );
      }
      case 'semantic_search': {
        const parsed = semanticSearchArgs.safeParse(args);
        if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
        return await semanticSearch(intel, parsed.data.query, parsed.data.limit, owner, now);
      }
      default:
        return errorResult(`Tool '${preview(name satisfies never)}' is not one of the intelligence layer's tools.`);
    }
  } catch (error) {
    return errorResult(`${name} failed: ${errorMessage(error)}`);
  }
}

async function readArtifact(
  artifacts: OwnedArtifacts,
  id: string,
  offset: number,
  limit: number,
): Promise<CallToolResult> {
  const found = await lookUpArtifact(artifacts, id);
  if (!found.ok) return errorResult(found.problem, { id });
  const { record, raw } = found;
  const start = Math.min(offset, raw.length);
  const end = Math.min(raw.length, start + limit);
  const next = end < raw.length ? end : null;
  const where = `${record.power}:${record.tool}, characters ${start}-${end} of ${raw.length}`;
  const header =
    next === null
      ? `Stored result ${id} (${where}); this is the end.`
      : `Stored result ${id} (${where}); continue with read_artifact({"id":"${id}","offset":${next}}).`;
  return {
    content: [
      { type: 'text', text: header },
      { type: 'text', text: raw.slice(start, end) },
    ],
    structuredContent: {
      id,
      power: record.power,
      tool: record.tool,
      offset: start,
      limit,
      returned_chars: end - start,
      total_chars: raw.length,
      next_offset: next,
    },
  };
}

async function semanticSearch(
  intel: Intel,
  query: string,
  limit: number,
  owner: ArtifactOwner,
  now: number,
): Promise<CallToolResult> {
  const { mode, hits } = await intel.searchPassages(query, limit, owner);
  return jsonResult({
    mode,
    results: hits.map(({ record, passage }) => ({
      id: record.id,
      power: record.power,
      tool: record.tool,
      start: passage.start,
      end: passage.end,
      relevance: passage.relevance,
      age: ageOf(now - record.at),
      age_seconds: Math.round((now - record.at) / 1000),
      expires_in_minutes: Math.max(0, Math.round((record.expiresAt - now) / 60_000)),
      passage: passage.text.length > PASSAGE_SHOWN ? `${passage.text.slice(0, PASSAGE_SHOWN)}…` : passage.text,
    })),
    message:
      hits.length > 0
        ? 'Read on from a passage with read_artifact({"id": ..., "offset": ' +
          '<start>}), or ask get_artifact_context({"ids": [...], "query": ...}) for more passages.'
        : `No stored result matches (${mode} search over results kept for ` +
          `${intel.settings.artifacts.ttlMinutes} min): call the tool you need instead.`,
  });
}

/** Characters of a passage shown in a search result. */
const PASSAGE_SHOWN = 500;
