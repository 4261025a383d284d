import type { CallToolResult, Tool } from '../util/mcp-types.js';
import { callWith } from '../calls/annotations.js';
import { jsonResult } from '../calls/results.js';
import { rerank } from '../ranking/learned-ranking.js';
import { NEUTRAL } from '../ranking/usage-group.js';
import type {
  PolicyPort,
  PowerLookup,
  RankTools,
  RetrieveRanking,
  SettingsPort,
  SteeringPort,
  ToolLookup,
} from './ports.js';
import { AWAITING_REVIEW_NOTE } from '../trust/tool-policy.js';
import { SteeringLog } from './steering.js';

export interface RetrieveRequest {
  query: string;
  limit: number;
  detail: 'full' | 'compact';
  explain?: boolean;
}

const DESCRIPTION_CHARS = 400;

export const USAGE_INSTRUCTIONS =
  "Call a tool with the variant in its call_with, e.g. call_tool_read({ name: '<power>:<tool>', args: { ... }, " +
  "intent: { operation_type: 'read', reason: '...' } }). The operation_type must match the variant. A power that is " +
  'not running starts on the first call. Annotations marked inferred were guessed by Grimoire from the tool name: advice only, ' +
  "call_tool_read needs a declared read-only. A tool with status 'awaiting_review' cannot be called until the user approves it.";

/** The ports the handler uses (ports.ts). */
export type RetrievePorts = PowerLookup &
  ToolLookup &
  RankTools &
  RetrieveRanking &
  PolicyPort &
  SteeringPort &
  SettingsPort<'ranking' | 'retrieve'>;

/** Tools across all powers for a task, best first, with how to call each, within a size cap. */
export async function retrieveTools(
  ports: RetrievePorts,
  request: RetrieveRequest,
  sessionId: string,
): Promise<CallToolResult> {
  const settings = ports.settings;
  const matched = (await ports.rankTools(request.query)).filter((c) => {
    const [power, ...tool] = c.name.split(':');
    return !ports.policy.settingsRefusal(power, tool.join(':')) && ports.power(power);
  });
  const usage = settings.ranking.learn ? ports.usage.forTools() : new Map();
  // The resolver's relevance (0..1 in both modes, in the ranking's order) is what history re-ranks.
  const ranked = rerank(matched, (name) => usage.get(name), ports.weights()).slice(0, request.limit);
  if (ranked.length > 0) {
    ports.recommendations.record({
      session: sessionId,
      source: 'retrieve_tools',
      query: request.query,
      candidates: ranked.map((c) => ({ name: c.name, relevance: c.relevance, factors: usage.get(c.name) ?? NEUTRAL })),
    });
  }
  const entries = ranked.flatMap((candidate) => {
    const [power, ...rest] = candidate.name.split(':');
    const toolName = rest.join(':');
    const tool = ports.toolsOf(power).find((t) => t.name === toolName);
    if (!tool) return [];
    const { source, inferred, ...hints } = ports.annotationsOf(power, tool);
    const held = ports.policy.isHeld(power, tool.name);
    return [
      {
        name: `${power}:${tool.name}`,
        power,
        description: truncate(tool.description ?? '', DESCRIPTION_CHARS),
        score: round(candidate.relevance),
        annotations: { ...hints, source, ...(inferred ? { inferred: true } : {}) },
        ...(held
          ? { status: 'awaiting_review', note: AWAITING_REVIEW_NOTE }
          : { call_with: callWith({ ...hints, source }) }),
        full: tool.inputSchema,
        compact: compactSchema(tool),
        ...(request.explain ? { explain: { matched_terms: candidate.matchedTerms, ...candidate.explanation } } : {}),
      },
    ];
  });
  // Guidance and the usage instructions come once per session, not with every answer.
  const given = (key: string) => ports.steering.given(sessionId, key);
  const once = {
    usage: !given(USAGE_KEY),
    guidance: (list: Entry[]) => {
      const powers = [...new Set(list.map((entry) => ports.power(entry.power as string)))].filter(
        (p) => p !== undefined && p.steering.trim() && !given(SteeringLog.guidanceKey(p)),
      );
      return Object.fromEntries(powers.map((p) => [p!.name, p!.steering.trim()]));
    },
  };
  const answer = fitToCap(entries, request, settings.retrieve.maxResultBytes, once);
  if (answer.usage_instructions) ports.steering.markGiven(sessionId, USAGE_KEY);
  for (const name of Object.keys((answer.guidance as Record<string, string> | undefined) ?? {})) {
    const power = ports.power(name);
    if (power) ports.steering.markGiven(sessionId, SteeringLog.guidanceKey(power));
  }
  return jsonResult(answer);
}

const USAGE_KEY = '#retrieve_tools usage';

type Entry = Record<string, unknown> & { full: unknown; compact: unknown };

/** Full schemas when they fit, compact ones when not, then fewer tools: never over the cap. */
function fitToCap(
  entries: Entry[],
  request: RetrieveRequest,
  maxBytes: number,
  once: { usage: boolean; guidance: (list: Entry[]) => Record<string, string> },
): Record<string, unknown> {
  const shape = (list: Entry[], detail: 'full' | 'compact') => {
    const guidance = once.guidance(list);
    return {
      tools: list.map(({ full, compact, ...rest }) => ({ ...rest, inputSchema: detail === 'full' ? full : compact })),
      detail,
      ...(Object.keys(guidance).length ? { guidance } : {}),
      ...(once.usage && list.length > 0 ? { usage_instructions: USAGE_INSTRUCTIONS } : {}),
      ...(list.length < entries.length
        ? {
            truncated: true,
            omitted: entries.length - list.length,
            note: 'Output was capped: ask for fewer tools or use detail: "compact".',
          }
        : {}),
      message:
        entries.length === 0
          ? 'No tool matches this request: rephrase it, or call resolve_intent to see the powers.'
          : "Call the tool that fits with the variant in its call_with, following its power's guidance.",
    };
  };
  const fits = (value: unknown) => Buffer.byteLength(JSON.stringify(value)) <= maxBytes;
  if (request.detail === 'full' && fits(shape(entries, 'full'))) return shape(entries, 'full');
  for (let count = entries.length; count >= 0; count -= 1) {
    const candidate = shape(entries.slice(0, count), 'compact');
    if (fits(candidate)) return candidate;
  }
  return shape([], 'compact');
}

/** Parameter names with their types, `?` marking the optional ones. */
export function compactSchema(tool: Tool): Record<string, string> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string | string[] }>;
  const required = new Set(tool.inputSchema.required ?? []);
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [
      `${name}${required.has(name) ? '' : '?'}`,
      Array.isArray(schema.type) ? schema.type.join('|') : (schema.type ?? 'any'),
    ]),
  );
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const round = (x: number) => Math.round(x * 1000) / 1000;
