import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorResult, jsonResult } from '../calls/results.js';
import { callWith } from '../calls/annotations.js';
import { UpstreamError } from '../upstream/errors.js';
import { errorMessage } from '../log.js';
import type { Gateway } from './gateway.js';
import { describeArgsError, powerNameArgs, resolveIntentArgs, retrieveToolsArgs } from './gateway-tools.js';
import { retrieveTools } from './retrieve-tools.js';
import { describePower } from './power-documents.js';
import { explainCandidate } from './explain.js';
import type { ResolvedCandidate, ResolveOptions } from './resolution.js';
import type { ExposedTool } from './exposure.js';
import { UnknownPowerError } from './unknown-power.js';
import { echoedQuery, queryTooLong } from './query-limit.js';
import { handleIntelTool } from '../intel/tools/intel-tool-handlers.js';

/** Answers a call to one of the gateway's own tools, or returns undefined for any other name. */
export async function handleGatewayTool(gateway: Gateway, name: string, args: Record<string, unknown>, sessionId: string): Promise<CallToolResult | undefined> {
  switch (name) {
    case 'resolve_intent': {
      const parsed = resolveIntentArgs.safeParse(args);
      if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
      const tooLong = queryTooLong(name, parsed.data.query, gateway.settings.limits.queryChars);
      if (tooLong) return tooLong;
      return resolveIntent(gateway, parsed.data.query, { sessionId, explain: parsed.data.explain });
    }
    case 'retrieve_tools': {
      const parsed = retrieveToolsArgs.safeParse(args);
      if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
      return queryTooLong(name, parsed.data.query, gateway.settings.limits.queryChars) ?? retrieveTools(gateway, parsed.data, sessionId);
    }
    case 'activate_power': {
      const parsed = powerNameArgs.safeParse(args);
      if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
      return activatePower(gateway, parsed.data.name, sessionId);
    }
    case 'deactivate_power': {
      const parsed = powerNameArgs.safeParse(args);
      if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
      return guarded(async () => {
        await gateway.deactivate(parsed.data.name, sessionId);
        return jsonResult({ status: 'deactivated', power: parsed.data.name, message: `'${parsed.data.name}' is deactivated in this session: its tools are gone from your list.` });
      });
    }
    default:
      return handleIntelTool(gateway.intel, name, args);
  }
}

async function resolveIntent(gateway: Gateway, fullQuery: string, options: ResolveOptions): Promise<CallToolResult> {
  const outcome = await gateway.resolve(fullQuery, options);
  const query = echoedQuery(fullQuery);
  const summary = (score: ResolvedCandidate) => {
    const power = gateway.power(score.name);
    const words = power ? describePower(power, gateway.toolsOf(score.name)) : { description: '', keywords: [] };
    return {
      name: score.name,
      confidence: score.confidence,
      match_type: score.matchType,
      description: words.description,
      keywords: words.keywords,
      ...(score.flags.length ? { flags: score.flags } : {}),
      ...(options.explain ? { explain: explainCandidate(score) } : {}),
    };
  };
  switch (outcome.tier) {
    case 'activated': {
      const best = outcome.candidates[0];
      return guarded(async () => {
        const exposed = await gateway.activate(best.name, options.sessionId);
        return jsonResult({
          status: 'activated',
          query,
          resolver: gateway.resolverStatus(),
          power: summary(best),
          ...activation(gateway, best.name, exposed, `Activated '${best.name}' (confidence ${best.confidence}).`),
        });
      });
    }
    case 'multiple_matches':
      return jsonResult({
        status: 'multiple_matches',
        query,
        resolver: gateway.resolverStatus(),
        matches: outcome.candidates.map(summary),
        message: 'Several powers could serve this. Call activate_power with the name that fits best, or ask the user which one they mean.',
      });
    case 'weak_matches':
      return jsonResult({
        status: 'weak_matches',
        query,
        resolver: gateway.resolverStatus(),
        matches: outcome.candidates.map(summary),
        message:
          'Only weak matches. If one of these fits, call activate_power with its name; otherwise rephrase the request with more specific words ' +
          '(the kind of data, the service, the action).',
      });
    case 'not_found':
      return jsonResult({
        status: 'not_found',
        query,
        resolver: gateway.resolverStatus(),
        powers: gateway.powers().map((power) => ({ name: power.name, description: describePower(power, gateway.toolsOf(power.name)).description })),
        message:
          'No power matches this request. The configured powers are listed: activate one by name if it fits, or tell the user ' +
          'that no configured MCP server provides this (they can add one as a spell file).',
      });
  }
}

async function activatePower(gateway: Gateway, name: string, sessionId: string): Promise<CallToolResult> {
  return guarded(async () => {
    const exposed = await gateway.activate(name, sessionId);
    return jsonResult({ status: 'activated', power: name, ...activation(gateway, name, exposed, `Activated '${name}'.`) });
  });
}

/**
 * What an activation gives the agent: the tools now in its list, and, for tools not exposed
 * (exposure mode 'call-tools', the exposure cap, or blocked), how to call them instead.
 */
function activation(gateway: Gateway, power: string, exposed: ExposedTool[], opening: string): Record<string, unknown> {
  const shown = new Set(exposed.map((tool) => tool.tool));
  const blocked = new Set(gateway.settings.tools.blocked);
  const held = gateway.trust.quarantinedOf(power);
  const hidden = gateway.usableTools(power).filter((tool) => !shown.has(tool.name) && !blocked.has(`${power}:${tool.name}`));
  const callable = hidden.map((tool) => {
    const { source, inferred, ...hints } = gateway.annotationsOf(power, tool);
    return { name: `${power}:${tool.name}`, description: firstLine(tool.description ?? ''), call_with: callWith({ ...hints, source, ...(inferred ? { inferred } : {}) }) };
  });
  const parts = [opening];
  if (exposed.length) parts.push(`Its ${exposed.length} tools are now in your tool list as '${power}__<tool>'; call them directly.`);
  if (callable.length) parts.push(`${callable.length} tools are not in your list: call them with the variant in their call_with, e.g. ${callable[0].call_with}({ name: '${callable[0].name}', args: {...}, intent: {...} }).`);
  if (held.length) parts.push(`${held.length} tools changed since the user approved them and await their review, so they cannot be called: ${held.map((t) => `${power}:${t}`).join(', ')}.`);
  parts.push('Call deactivate_power when you are done.');
  return {
    tools: exposed.map((tool) => ({ name: tool.definition.name, description: firstLine(tool.definition.description ?? '') })),
    ...(callable.length ? { call_with_tools: callable } : {}),
    ...(held.length ? { awaiting_review: held.map((t) => `${power}:${t}`) } : {}),
    message: parts.join(' '),
  };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

async function guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UnknownPowerError) return errorResult(error.message, { known_powers: error.known });
    if (error instanceof UpstreamError) return errorResult(error.message, { code: error.code, power: error.power });
    return errorResult(errorMessage(error));
  }
}
