import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorResult, jsonResult } from '../calls/results.js';
import { callWith } from '../calls/annotations.js';
import { UpstreamError } from '../upstream/errors.js';
import { errorMessage } from '../log.js';
import type { Activate, ReadArtifacts, Resolve, SettingsPort } from './ports.js';
import { activatePowerArgs, deactivatePowerArgs, describeArgsError, resolveIntentArgs } from './gateway-tools.js';
import { retrieveToolsArgs } from './call-tool-definitions.js';
import { retrieveTools, type RetrievePorts } from './retrieve-tools.js';
import { describePower } from './power-documents.js';
import { explainCandidate } from './explain.js';
import type { ResolvedCandidate, ResolveOptions } from './resolution.js';
import type { ExposedTool } from './exposure.js';
import { UnknownPowerError } from './unknown-power.js';
import { queryTooLong } from './query-limit.js';
import { SteeringLog } from './steering.js';
import { handleIntelTool } from '../intel/tools/intel-tool-handlers.js';

/** The ports the handler uses (ports.ts). */
export type GatewayToolPorts = RetrievePorts & Resolve & Activate & ReadArtifacts & SettingsPort<'limits'>;

/** Answers a call to one of the gateway's own tools, or returns undefined for any other name. */
export async function handleGatewayTool(ports: GatewayToolPorts, name: string, args: Record<string, unknown>, sessionId: string): Promise<CallToolResult | undefined> {
  switch (name) {
    case 'resolve_intent': {
      const parsed = resolveIntentArgs.safeParse(args);
      if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
      const tooLong = queryTooLong(name, parsed.data.query, ports.settings.limits.queryChars);
      if (tooLong) return tooLong;
      return resolveIntent(ports, parsed.data.query, { sessionId, explain: parsed.data.explain });
    }
    case 'retrieve_tools': {
      const parsed = retrieveToolsArgs.safeParse(args);
      if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
      return queryTooLong(name, parsed.data.query, ports.settings.limits.queryChars) ?? retrieveTools(ports, parsed.data, sessionId);
    }
    case 'activate_power': {
      const parsed = activatePowerArgs.safeParse(args);
      if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
      return activatePower(ports, parsed.data.name, sessionId);
    }
    case 'deactivate_power': {
      const parsed = deactivatePowerArgs.safeParse(args);
      if (!parsed.success) return errorResult(describeArgsError(name, parsed.error));
      return guarded(async () => {
        await ports.deactivate(parsed.data.name, sessionId);
        return jsonResult({ status: 'deactivated', power: parsed.data.name, message: `'${parsed.data.name}' is deactivated in this session: its tools are gone from your list.` });
      });
    }
    default:
      return handleIntelTool(ports.intel, name, args, ports.intel.ownerOf(sessionId));
  }
}

async function resolveIntent(ports: GatewayToolPorts, query: string, options: ResolveOptions): Promise<CallToolResult> {
  const outcome = await ports.resolve(query, options);
  const internals = options.explain ? { resolver: ports.resolverStatus() } : {};
  const summary = (score: ResolvedCandidate) => {
    const power = ports.power(score.name);
    const words = power ? describePower(power, ports.toolsOf(score.name)) : { description: '', keywords: [] };
    return {
      name: score.name,
      confidence: score.confidence,
      description: words.description,
      ...(score.flags.length ? { flags: score.flags } : {}),
      ...(options.explain ? { match_type: score.matchType, keywords: words.keywords, explain: explainCandidate(score) } : {}),
    };
  };
  switch (outcome.tier) {
    case 'activated': {
      const best = outcome.candidates[0];
      return guarded(async () => {
        const exposed = await ports.activate(best.name, options.sessionId);
        return jsonResult({
          status: 'activated',
          power: { name: best.name, confidence: best.confidence, ...(options.explain ? { match_type: best.matchType, explain: explainCandidate(best) } : {}) },
          ...internals,
          ...activation(ports, best.name, exposed, options.sessionId),
        });
      });
    }
    case 'multiple_matches':
      return jsonResult({
        status: 'multiple_matches',
        matches: outcome.candidates.map(summary),
        ...internals,
        message: 'Call activate_power with the name that fits best, or ask the user which one they mean.',
      });
    case 'weak_matches':
      return jsonResult({
        status: 'weak_matches',
        matches: outcome.candidates.map(summary),
        ...internals,
        message: 'If one of these fits, call activate_power with its name; otherwise call resolve_intent again naming the kind of data, the service or the action.',
      });
    case 'not_found':
      return jsonResult({
        status: 'not_found',
        powers: ports.powers().map((power) => ({ name: power.name, description: describePower(power, ports.toolsOf(power.name)).description })),
        ...internals,
        message: 'No power matches: activate a listed one by name if it fits, or tell the user no configured MCP server provides this (they can add one as a spell file).',
      });
  }
}

async function activatePower(ports: GatewayToolPorts, name: string, sessionId: string): Promise<CallToolResult> {
  return guarded(async () => {
    const exposed = await ports.activate(name, sessionId);
    return jsonResult({ status: 'activated', power: { name }, ...activation(ports, name, exposed, sessionId) });
  });
}

/**
 * What an activation gives the agent, once: the power's guidance (steering), the names of the
 * tools now in its list with one line each (their schemas come with tools/list), how to call the
 * tools that are not exposed (exposure mode 'call-tools', the cap), and what to do next.
 */
function activation(ports: GatewayToolPorts, power: string, exposed: ExposedTool[], sessionId: string | undefined): Record<string, unknown> {
  const shown = new Set(exposed.map((tool) => tool.tool));
  const held = ports.policy.held(power);
  const hidden = ports.toolsOf(power).filter((tool) => !shown.has(tool.name) && ports.policy.exposable(power, tool.name));
  const callable = hidden.map((tool) => {
    const { source, inferred, ...hints } = ports.annotationsOf(power, tool);
    return { name: `${power}:${tool.name}`, description: firstLine(tool.description ?? ''), call_with: callWith({ ...hints, source, ...(inferred ? { inferred } : {}) }) };
  });
  const definition = ports.power(power);
  const guidance = definition?.steering.trim() ?? '';
  if (sessionId && definition && guidance) ports.steering.markGiven(sessionId, SteeringLog.guidanceKey(definition));
  const next = exposed.length
    ? `Call its tools from your tool list as '${power}__<tool>'${callable.length ? ` and the others in call_with_tools with the variant named in their call_with` : ''}, following the guidance, then deactivate_power('${power}') when done.`
    : `Call its tools with the variant named in each call_with (e.g. ${callable[0]?.call_with ?? 'call_tool_read'}({ name: '${callable[0]?.name ?? `${power}:<tool>`}', args: {...}, intent: {...} })), then deactivate_power('${power}') when done.`;
  const review = held.length ? ` ${held.length} of its tools changed since the user approved them and await their review, so they cannot be called: ${held.map((t) => `${power}:${t}`).join(', ')}.` : '';
  return {
    ...(guidance ? { guidance } : {}),
    tools: Object.fromEntries(exposed.map((tool) => [tool.definition.name, firstLine(tool.definition.description ?? '')])),
    ...(callable.length ? { call_with_tools: callable } : {}),
    ...(held.length ? { awaiting_review: held.map((t) => `${power}:${t}`) } : {}),
    message: next + review,
  };
}

/** The first sentence or line of a description, at most 120 characters. */
function firstLine(text: string): string {
  const line = (text.split('\n')[0] ?? '').trim();
  const sentence = line.match(/^.+?[.!?](?=\s|$)/)?.[0] ?? line;
  return sentence.length > 120 ? `${sentence.slice(0, 117)}...` : sentence;
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
