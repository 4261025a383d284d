/**
 * The gateway tools of the intelligence layer: read_artifact, get_artifact_context, semantic_search. Names
 * are a stable contract (DESIGN.md).
 */
import type { Tool } from '../../util/mcp-types.js';
import { z } from 'zod';
import { toolInputSchema } from '../../util/tool-args.js';

export const READ_ARTIFACT_DEFAULT_LIMIT = 8_000;
export const READ_ARTIFACT_MAX_LIMIT = 50_000;

export const readArtifactArgs = z.object({
  id: z
    .string()
    .min(1, 'id must not be empty: use the artifactId from a summary or from semantic_search')
    .describe('The artifact id, e.g. "art_0123456789ab".'),
  offset: z.number().int().min(0).default(0).describe('Character offset to start at (default 0).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_ARTIFACT_MAX_LIMIT)
    .default(READ_ARTIFACT_DEFAULT_LIMIT)
    .describe(`Characters to return (default ${READ_ARTIFACT_DEFAULT_LIMIT}).`),
});

export const artifactContextArgs = z.object({
  ids: z
    .array(z.string().min(1))
    .min(1, 'ids must name at least one artifact')
    .max(20)
    .describe('Artifact ids, most important first.'),
  maxTokens: z
    .number()
    .int()
    .min(50)
    .max(100_000)
    .default(4_000)
    .describe('Token budget for the whole answer (default 4000).'),
  query: z.string().trim().min(1).optional().describe('What you need from them, e.g. "status of order ORD-7042".'),
});

export const semanticSearchArgs = z.object({
  query: z
    .string()
    .min(1, 'query must not be empty: describe the earlier result you are looking for')
    .describe('What you are looking for, e.g. "the failing build log".'),
  limit: z.number().int().min(1).max(50).default(5).describe('Results to return (default 5).'),
});

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const INTEL_TOOLS: Tool[] = [
  {
    name: 'read_artifact',
    title: 'Read a stored tool result',
    description:
      'Page through the full text of a large tool result that Grimoire replaced with a summary (its id is metadata.artifactId). ' +
      `Returns up to \`limit\` characters (default ${READ_ARTIFACT_DEFAULT_LIMIT}) from \`offset\`, and the offset to continue from.`,
    inputSchema: toolInputSchema(readArtifactArgs),
    annotations: readOnly,
  },
  {
    name: 'get_artifact_context',
    title: 'Assemble stored results within a token budget',
    description:
      'Put stored tool results into your context within maxTokens (o200k_base). With query: ' +
      'the passages most relevant to it, each with its ' +
      'character range. Without: each summary, then the text from its start.',
    inputSchema: toolInputSchema(artifactContextArgs),
    annotations: readOnly,
  },
  {
    name: 'semantic_search',
    title: 'Search earlier tool results',
    description:
      'Search the results of earlier tool calls that Grimoire kept (large results, for a few hours). ' +
      'Returns the best passages, each with its ' +
      'artifact id and character range; read on with read_artifact instead of calling the tool again.',
    inputSchema: toolInputSchema(semanticSearchArgs),
    annotations: readOnly,
  },
];
