import type { CallToolResult, Tool } from '../util/mcp-types.js';
import type { HintSource } from '../../protocol/records.js';
import type { Stage } from '../calls/pipeline.js';
import type { SpellExtensions } from '../powers/spell-schema.js';
import { stableJson } from '../../shared/hash.js';
import { declaredHints, matchErrorHint, qualify } from './declared-hints.js';
import type { HintEvents } from './hint-events.js';
import type { LearnedTransitions } from './learned-transitions.js';
import type { SessionContexts } from './session-context.js';

export const HINTS_META = 'grimoire/hints';

export interface HintsDeps {
  sessions: SessionContexts;
  events: HintEvents;
  transitions: LearnedTransitions;
  extensions: (power: string) => SpellExtensions | undefined;
  tool: (power: string, tool: string) => Tool | undefined;
  settings: () => { learn: boolean; minSupport: number };
}

export interface NextAction {
  tool: string;
  source: HintSource;
  support?: number;
}

/**
 * Hints guide, they never lock: the first call whose declared prerequisites have not run in this
 * session gets a PREREQUISITE_SUGGESTED answer instead of running (calling again, or proceed:
 * true, runs it); a success carries suggested next actions (declared, else learned); an error
 * that matches an error hint carries it. Hints ride as extra text and in `_meta`; a successful
 * result's own content is never changed.
 */
export function hintsStage(deps: HintsDeps): Stage {
  return async (context, next) => {
    const qualified = `${context.power}:${context.tool}`;
    let call: string | undefined;
    const callKey = (): string => (call ??= `${qualified} ${stableJson(context.args)}`);
    const session = deps.sessions.get(context.sessionId);
    deps.events.resolve(context.sessionId, qualified, callKey);
    const hints = declaredHints(deps.extensions(context.power), context.tool);
    // An error hint names the call as it was asked, before the stages below saw its arguments.
    if (hasAny(hints.errorHints)) callKey();
    if (hints.audit) context.audit = true;

    const missing = hints.prerequisites.map((p) => qualify(context.power, p)).filter((p) => !session.hasCompleted(p));
    if (missing.length > 0 && !context.proceed && session.firstSuggestion(qualified)) {
      deps.events.fired(context.sessionId, {
        power: context.power,
        tool: context.tool,
        kind: 'prerequisite',
        hint: missing.join(','),
        source: 'declared',
        suggested: missing,
      });
      context.suggested = true;
      return prerequisiteSuggested(qualified, missing, Boolean(deps.tool(context.power, context.tool)?.outputSchema));
    }

    const result = await next();
    if (!result.isError) {
      session.complete(qualified);
      const actions = nextActions(deps, context.power, qualified, hints.nextActions);
      if (actions.length === 0) return result;
      deps.events.fired(context.sessionId, {
        power: context.power,
        tool: context.tool,
        kind: 'next_action',
        hint: actions.map((a) => a.tool).join(','),
        source: actions[0].source,
        suggested: actions.map((a) => a.tool),
      });
      return withHint(result, `Suggested next actions: ${actions.map(describeAction).join(', ')}.`, {
        suggested_next_actions: actions,
      });
    }
    const message = textOf(result);
    // Any JSON value: a primitive or an array has no `code`.
    const structured = result.structuredContent as { code?: unknown } | null | undefined;
    const code = typeof structured?.code === 'string' ? structured.code : undefined;
    const matched = matchErrorHint(hints.errorHints, code, message);
    if (!matched) return result;
    deps.events.fired(context.sessionId, {
      power: context.power,
      tool: context.tool,
      kind: 'error_hint',
      hint: matched.key,
      source: 'declared',
      suggested: [],
      failedCall: callKey(),
    });
    return withHint(result, `Hint: ${matched.hint}`, { error_hint: matched.hint, matched: matched.key });
  };
}

function nextActions(deps: HintsDeps, power: string, qualified: string, declared: string[]): NextAction[] {
  if (declared.length > 0) return declared.map((tool) => ({ tool: qualify(power, tool), source: 'declared' }));
  const settings = deps.settings();
  if (!settings.learn) return [];
  return deps.transitions
    .from(qualified, settings.minSupport)
    .filter((t) => t.errorRate <= 0.5)
    .slice(0, 3)
    .map((t) => ({ tool: t.to, source: 'learned', support: t.support }));
}

const describeAction = (action: NextAction) =>
  action.source === 'learned' ? `${action.tool} (learned: followed this ${action.support} times)` : action.tool;

/**
 * A tool with an output schema must answer with matching structured content unless the result is
 * an error, so for those the suggestion comes back flagged as an error (clients validate it
 * otherwise); for the rest it is a plain result with the suggestion as structured content.
 */
function prerequisiteSuggested(tool: string, missing: string[], hasOutputSchema: boolean): CallToolResult {
  const [power] = tool.split(':');
  const body = {
    status: 'PREREQUISITE_SUGGESTED',
    message:
      `Before ${tool}, the '${power}' power suggests running ${missing.join(', ')} first (not yet run in ` +
      `this session). Nothing was called.`,
    hint:
      `Call ${missing.map((m) => m.replace(':', '__')).join(', ')} first (or through call_tool_read with ` +
      `name '${missing[0]}'), then call ${tool} again. To run it anyway, ` +
      `call it again now or pass proceed: true.`,
    missing,
    can_proceed: true,
  };
  return {
    content: [{ type: 'text', text: JSON.stringify(body, null, 2) }],
    ...(hasOutputSchema ? { isError: true } : { structuredContent: body }),
    _meta: { [HINTS_META]: body },
  };
}

function withHint(result: CallToolResult, text: string, meta: Record<string, unknown>): CallToolResult {
  return {
    ...result,
    content: [...(result.content ?? []), { type: 'text', text }],
    _meta: { ...result._meta, [HINTS_META]: meta },
  };
}

function hasAny(record: Record<string, string>): boolean {
  for (const _ in record) return true;
  return false;
}

function textOf(result: CallToolResult): string {
  return (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
