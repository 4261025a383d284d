/** The result the agent gets instead of a large one: the summary as compact JSON, then one line on how to get the rest. */
import type { CallToolResult, Tool } from '../util/mcp-types.js';
import { formatBytes } from './local/format.js';
import { summaryStructuredContent } from './structured-content.js';
import type { Attempt, Summary } from './summary.js';

export const SUMMARY_META = 'grimoire/summary';

export interface RenderOptions {
  /** The original's `_meta` is kept, and so are its resource links (pointers a client can follow). */
  original: Pick<CallToolResult, '_meta'> & Partial<Pick<CallToolResult, 'content'>>;
  /** See structured-content.ts; needed when the tool has an output schema. */
  structuredTemplate?: unknown;
  outputSchema?: Tool['outputSchema'];
  ttlMinutes: number;
  attempts: Attempt[];
  /** Why the full result is not stored, when it is not. */
  notStored?: string;
  /** Age of the cached result, on a cache hit. */
  cachedAgeMs?: number;
}

/** Undefined when no structured content fits the tool's output schema: the caller passes the raw result on. */
export function renderSummary(summary: Summary, options: RenderOptions): CallToolResult | undefined {
  const json = JSON.stringify(agentView(summary));
  const line = howToGetTheRest(summary, options);
  const text = `${json}\n${line}`;
  const structured = summaryStructuredContent(
    options.outputSchema,
    options.structuredTemplate,
    agentView(summary),
    text,
  );
  if (options.outputSchema && !structured) return undefined;
  return {
    content: [
      { type: 'text', text: json },
      { type: 'text', text: line },
      ...(options.original.content ?? []).filter((item) => item.type === 'resource_link'),
    ],
    ...(structured ? { structuredContent: structured } : {}),
    _meta: {
      ...options.original._meta,
      [SUMMARY_META]: {
        artifactId: summary.metadata.artifactId ?? null,
        summarizer: summary.metadata.summarizer,
        cached: summary.metadata.cached === true,
        stored: options.notStored === undefined,
        rawBytes: summary.metadata.rawBytes,
        attempts: options.attempts,
      },
    },
  };
}

/** What the agent reads: the findings, insights, identifiers and the call's metadata (how it was made is in `_meta`). */
export function agentView(summary: Summary): Record<string, unknown> {
  const { summarizer: _summarizer, rawBytes: _rawBytes, ...metadata } = summary.metadata;
  return { ...summary, metadata };
}

function howToGetTheRest(summary: Summary, options: RenderOptions): string {
  const size = formatBytes(summary.metadata.rawBytes);
  const id = summary.metadata.artifactId;
  if (!id) {
    return (
      `Grimoire summarized this ${size} result. The full result could not be stored ` +
      `(${options.notStored ?? 'unknown reason'}): call the tool again with narrower arguments if you need ` +
      `more than this summary.`
    );
  }
  const kept = options.ttlMinutes % 60 === 0 ? `${options.ttlMinutes / 60} h` : `${options.ttlMinutes} min`;
  const access = `read_artifact({"id":"${id}"}) pages it, get_artifact_context({"ids":["${id}"]}) adds excerpts`;
  if (options.cachedAgeMs !== undefined) {
    return (
      `From Grimoire's cache (its spell sets cache.ttlSeconds for this tool): ` +
      `this call ran ${age(options.cachedAgeMs)} ago and was not sent again. ` +
      `Full ${size} result ${id}: ${access}.`
    );
  }
  return `Summary by Grimoire; the full ${size} result is kept ${kept} as ${id}: ${access}.`;
}

function age(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.max(1, Math.round(ms / 1000))} s`;
  if (minutes < 120) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}
