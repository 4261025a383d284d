import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorResult, jsonResult } from '../calls/results.js';
import { UpstreamError } from '../upstream/errors.js';
import { errorMessage } from '../log.js';
import type { Activate, ReadArtifacts, Resolve, SettingsPort } from './ports.js';
import { describeArgsError } from '../util/tool-args.js';
import { activatePowerArgs, deactivatePowerArgs, resolveIntentArgs } from './gateway-tools.js';
import { retrieveToolsArgs } from './call-tool-definitions.js';
import { retrieveTools, type RetrievePorts } from './retrieve-tools.js';
import { describePower } from './power-documents.js';
import { explainCandidate } from './explain.js';
import type { ResolvedCandidate, ResolveOptions } from './resolution.js';
import type { ExposedTool } from './exposure.js';
import { UnknownPowerError } from './unknown-power.js';
import { queryTooLong } from './query-limit.js';
import { SteeringLog } from './steering.js';
import { gatewayAnswerView } from './answer-view.js';
import { activatedAnswer, activatePowerAnswer, matchesAnswer, type ActivationFacts } from './resolve-answer.js';
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
  const view = gatewayAnswerView(ports);
  const internals = options.explain ? { resolver: ports.resolverStatus() } : {};
  const partial = outcome.partial?.note;
  if (outcome.tier === 'activated') {
    const best = outcome.candidates[0];
    return guarded(async () => {
      const exposed = await ports.activate(best.name, options.sessionId);
      // Ranked after the activation: a power listed for the first time by it has its tools in the index now.
      const toolRanking = await ports.rankTools(query);
      const power = options.explain ? { match_type: best.matchType, explain: explainCandidate(best) } : {};
      return jsonResult(activatedAnswer(view, best, activationFacts(ports, best.name, exposed, options.sessionId), toolRanking, { internals, power, partial }));
    });
  }
  const decorate = options.explain
    ? (score: ResolvedCandidate) => {
        const power = ports.power(score.name);
        return { match_type: score.matchType, keywords: power ? describePower(power, ports.toolsOf(score.name)).keywords : [], explain: explainCandidate(score) };
      }
    : undefined;
  return jsonResult(matchesAnswer(view, outcome.tier, outcome.candidates, await ports.rankTools(query), { internals, decorate, partial }));
}

async function activatePower(ports: GatewayToolPorts, name: string, sessionId: string): Promise<CallToolResult> {
  return guarded(async () => {
    const exposed = await ports.activate(name, sessionId);
    return jsonResult(activatePowerAnswer(gatewayAnswerView(ports), activationFacts(ports, name, exposed, sessionId)));
  });
}

/** What an activation did; the power's guidance only when this session was not given it yet (and it is marked given). */
function activationFacts(ports: GatewayToolPorts, power: string, exposed: ExposedTool[], sessionId: string | undefined): ActivationFacts {
  const definition = ports.power(power);
  const steering = definition?.steering.trim() ?? '';
  const key = definition ? SteeringLog.guidanceKey(definition) : '';
  const guidance = steering && !(sessionId && ports.steering.given(sessionId, key)) ? steering : undefined;
  if (sessionId && guidance) ports.steering.markGiven(sessionId, key);
  return { power, exposed: exposed.map((e) => ({ tool: e.tool, listedAs: e.definition.name })), held: ports.policy.held(power), ...(guidance ? { guidance } : {}) };
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
