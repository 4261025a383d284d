/**
 * What a 2026-07-28 ("modern") client gets that a 2025 one does not. The revision forbids a tool
 * list that changes as a side effect of other requests, so a modern client's list is the
 * gateway's own tools, always the same and in one order; a power's tools are called through
 * call_tool_read/write/destructive as '<power>:<tool>', and every answer of the gateway's tools
 * that names a power's tool carries its input schema and the variant to call it with.
 */
import type { CallToolResult, Tool } from '../../util/mcp-types.js';
import type { CacheHint } from '@modelcontextprotocol/server';
import { callWith } from '../../calls/annotations.js';
import { GATEWAY_TOOLS } from '../gateway-tools.js';
import type { GatewayPorts } from '../ports.js';
import { splitQualifiedName } from '../tool-names.js';

export type Era = 'legacy' | 'modern';

const MODERN_TOOLS: Tool[] = [...GATEWAY_TOOLS].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** The tool list of every modern client: the gateway's own tools, sorted by name. */
export function modernToolList(): Tool[] {
  return MODERN_TOOLS;
}

/**
 * The cache fields of modern list results. The tool list is the same for every request of a
 * build, so a client may keep it a minute; prompts and resources follow the active powers, so
 * they are not cached. Every list is the requester's own (private).
 */
export const MODERN_CACHE_HINTS: Partial<
  Record<'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'server/discover', CacheHint>
> = {
  'tools/list': { ttlMs: 60_000, cacheScope: 'private' },
  'server/discover': { ttlMs: 60_000, cacheScope: 'private' },
  'prompts/list': { ttlMs: 0, cacheScope: 'private' },
  'resources/list': { ttlMs: 0, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: 0, cacheScope: 'private' },
};

/** The gateway tools whose answers name a power's tools (as '<power>:<tool>' or '<power>__<tool>'). */
const NAMING_TOOLS = new Set(['resolve_intent', 'activate_power']);

type SchemaPorts = Pick<GatewayPorts, 'toolsOf' | 'annotationsOf' | 'power'>;

/** One power tool as a modern client calls it. */
export interface CallableTool {
  name: string;
  call_with: ReturnType<typeof callWith>;
  description?: string;
  input_schema: Tool['inputSchema'];
}

/**
 * A gateway tool's JSON answer with `callable`: each power tool it names (activate_power: each tool
 * of the power), with what a modern client needs to call it. Other answers pass unchanged.
 */
export function withNamedToolSchemas(ports: SchemaPorts, toolName: string, result: CallToolResult): CallToolResult {
  // The naming tools answer with jsonResult (server/calls/results.ts): an object.
  const payload = result.structuredContent as Record<string, unknown> | undefined;
  if (!NAMING_TOOLS.has(toolName) || result.isError || !payload || 'callable' in payload) return result;
  const named = new Map<string, { power: string; tool: Tool }>();
  const add = (power: string, tool: Tool) => named.set(`${power}:${tool.name}`, { power, tool });
  const activated = toolName === 'activate_power' && payload.status === 'activated' ? powerOf(payload) : undefined;
  if (activated) for (const tool of ports.toolsOf(activated)) add(activated, tool);
  else
    for (const text of strings(payload)) {
      const split = splitQualifiedName(text);
      const tool =
        split && ports.power(split.power) ? ports.toolsOf(split.power).find((t) => t.name === split.tool) : undefined;
      if (split && tool) add(split.power, tool);
    }
  if (!named.size) return result;
  const callable: CallableTool[] = [...named].map(([name, { power, tool }]) => {
    const { source, inferred, ...hints } = ports.annotationsOf(power, tool);
    return {
      name,
      call_with: callWith({ ...hints, source, ...(inferred ? { inferred } : {}) }),
      ...(tool.description ? { description: tool.description } : {}),
      input_schema: tool.inputSchema,
    };
  });
  const next = {
    ...payload,
    callable,
    list_note:
      "Your tool list does not change: call these as '<power>:<tool>' through the call_with variant " +
      '(call_tool_read, call_tool_write or call_tool_destructive), with args matching input_schema.',
  };
  return {
    ...result,
    content: [{ type: 'text', text: JSON.stringify(next) }, ...result.content.slice(1)],
    structuredContent: next,
  };
}

function powerOf(payload: Record<string, unknown>): string | undefined {
  const power = payload.power as { name?: unknown } | undefined;
  return typeof power?.name === 'string' ? power.name : undefined;
}

/** Every string in a JSON value (bounded by the answer's own size). */
function* strings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* strings(item);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) yield* strings(item);
}
