import type { CallToolResult } from '../util/mcp-types.js';
import { errorResult, jsonResult } from '../calls/results.js';
import { UpstreamError } from '../upstream/errors.js';
import { errorMessage } from '../log.js';
import { preview } from '../../shared/preview.js';
import type {
  Activate,
  CallerContext,
  PolicyPort,
  PowerLookup,
  ReadArtifacts,
  Resolve,
  SettingsPort,
  ToolLookup,
} from './ports.js';
import { describeArgsError } from '../util/tool-args.js';
import { activatePowerArgs, deactivatePowerArgs, resolveIntentArgs, type GatewayToolName } from './gateway-tools.js';
import { retrieveToolsArgs } from './call-tool-definitions.js';
import { retrieveTools, type RetrievePorts } from './retrieve-tools.js';
import { catalogRarityOf, describePower } from './power-documents.js';
import type { WordRarity } from '../powers/derive.js';
import type { ResolvedCandidate, ResolveOptions } from './resolution.js';
import type { ExposedTool } from './exposure.js';
import { UnknownPowerError } from './activation.js';
import { SteeringLog } from './steering.js';
import {
  activatedAnswer,
  activatePowerAnswer,
  matchesAnswer,
  type ActivationFacts,
  type ResolveAnswerView,
} from './resolve-answer.js';
import { handleIntelTool } from '../intel/tools/intel-tool-handlers.js';
import { handleIntentCall, type IntentCallPorts } from './intent-calls.js';
import type { UpstreamManager } from '../upstream/manager.js';

/** The ports the handlers use (ports.ts). */
export type GatewayToolPorts = RetrievePorts &
  Resolve &
  Activate &
  ReadArtifacts &
  SettingsPort<'limits'> &
  IntentCallPorts & { manager: Pick<UpstreamManager, 'noteTurn'> };

/**
 * Answers a call to one of the gateway's own tools. A call_tool_* call runs through the call
 * pipeline, which counts the agent's turn and the result it delivers; the answer of any other
 * gateway tool is counted here. A name the gateway does not declare is an error.
 */
export async function handleGatewayTool(
  ports: GatewayToolPorts,
  name: GatewayToolName,
  args: Record<string, unknown>,
  caller: CallerContext,
): Promise<CallToolResult> {
  switch (name) {
    case 'call_tool_read':
      return handleIntentCall(ports, 'read', args, caller);
    case 'call_tool_write':
      return handleIntentCall(ports, 'write', args, caller);
    case 'call_tool_destructive':
      return handleIntentCall(ports, 'destructive', args, caller);
    default: {
      const answer = await ownAnswer(ports, name, args, caller.sessionId);
      ports.intel.reads.answered(caller.sessionId, answer);
      ports.manager.noteTurn();
      return answer;
    }
  }
}

async function ownAnswer(
  ports: GatewayToolPorts,
  name: Exclude<GatewayToolName, `call_tool_${string}`>,
  args: Record<string, unknown>,
  sessionId: string,
): Promise<CallToolResult> {
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
      return (
        queryTooLong(name, parsed.data.query, ports.settings.limits.queryChars) ??
        retrieveTools(ports, parsed.data, sessionId)
      );
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
        return jsonResult({
          status: 'deactivated',
          power: parsed.data.name,
          message: `'${parsed.data.name}' is deactivated in this session: its tools are gone from your list.`,
        });
      });
    }
    case 'read_artifact':
    case 'get_artifact_context':
    case 'semantic_search':
      return handleIntelTool(ports.intel, name, args, ports.intel.ownerOf(sessionId));
    default:
      return errorResult(`Tool '${preview(name satisfies never)}' is not one of the gateway's tools.`);
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
      return jsonResult(
        activatedAnswer(view, best, activationFacts(ports, best.name, exposed, options.sessionId), toolRanking, {
          internals,
          power,
          partial,
        }),
      );
    });
  }
  const rarity = catalogRarityOnce(ports);
  const decorate = options.explain
    ? (score: ResolvedCandidate) => {
        const power = ports.power(score.name);
        return {
          match_type: score.matchType,
          keywords: power ? describePower(power, ports.toolsOf(score.name), rarity()).keywords : [],
          explain: explainCandidate(score),
        };
      }
    : undefined;
  return jsonResult(
    matchesAnswer(view, outcome.tier, outcome.candidates, await ports.rankTools(query), {
      internals,
      decorate,
      partial,
    }),
  );
}

async function activatePower(ports: GatewayToolPorts, name: string, sessionId: string): Promise<CallToolResult> {
  return guarded(async () => {
    const exposed = await ports.activate(name, sessionId);
    return jsonResult(activatePowerAnswer(gatewayAnswerView(ports), activationFacts(ports, name, exposed, sessionId)));
  });
}

/** What an activation did; the power's guidance only when this session was not given it yet (and it is marked given). */
function activationFacts(
  ports: GatewayToolPorts,
  power: string,
  exposed: ExposedTool[],
  sessionId: string | undefined,
): ActivationFacts {
  const definition = ports.power(power);
  const steering = definition?.steering.trim() ?? '';
  const key = definition ? SteeringLog.guidanceKey(definition) : '';
  const guidance = steering && !(sessionId && ports.steering.given(sessionId, key)) ? steering : undefined;
  if (sessionId && guidance) ports.steering.markGiven(sessionId, key);
  return {
    power,
    exposed: exposed.map((e) => ({ tool: e.tool, listedAs: e.definition.name })),
    held: ports.policy.held(power),
    ...(guidance ? { guidance } : {}),
  };
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

/** resolve_intent and retrieve_tools refuse a query over the limit (settings: limits.queryChars), quoting only its start. */
function queryTooLong(tool: string, query: string, limit: number): CallToolResult | undefined {
  if (query.length <= limit) return undefined;
  return errorResult(
    `The query for ${tool} has ${query.length.toLocaleString('en-US')} characters; ` +
      `the limit is ${limit.toLocaleString('en-US')} (setting limits.queryChars). ` +
      `Say in a sentence or two what you want to do. The query began: '${preview(query, 80)}'`,
    { code: 'query_too_long' },
  );
}

/** The catalog's word rarity, computed on first use: imported powers are described as the index describes them. */
function catalogRarityOnce(ports: PowerLookup & ToolLookup): () => WordRarity {
  let rarity: WordRarity | undefined;
  return () => (rarity ??= catalogRarityOf(ports.powers(), (name) => ports.toolsOf(name)));
}

/** The gateway's catalog as resolve-answer.ts reads it: tool rankings name tools `<power>:<tool>`. */
function gatewayAnswerView(ports: PowerLookup & ToolLookup & PolicyPort): ResolveAnswerView {
  const rarity = catalogRarityOnce(ports);
  return {
    describe: (name) => {
      const power = ports.power(name);
      return power ? describePower(power, ports.toolsOf(name), rarity()).description : '';
    },
    powerNames: () =>
      ports
        .powers()
        .map((power) => power.name)
        .filter((name) => !ports.policy.powerRefusal(name)),
    toolsOf: (power) => ports.toolsOf(power),
    annotationsOf: (power, tool) => ports.annotationsOf(power, tool),
    callable: (power, tool) => ports.policy.exposable(power, tool),
    toolOf: (ranked) => {
      const colon = ranked.indexOf(':');
      return colon > 0 ? { power: ranked.slice(0, colon), tool: ranked.slice(colon + 1) } : undefined;
    },
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** "Why this power": what matched, how sure the calibration is, and what history added. */
function explainCandidate(candidate: ResolvedCandidate): Record<string, unknown> {
  const explanation = candidate.explanation;
  return {
    relevance: {
      lexical_score: round(candidate.score),
      strength: candidate.normalized,
      coverage: candidate.coverage,
      matched_terms: candidate.matchedTerms,
      match_type: candidate.matchType,
      ...(candidate.semantic !== undefined ? { semantic_similarity: candidate.semantic } : {}),
    },
    confidence: candidate.confidence,
    ...(explanation
      ? {
          learned: {
            relative_relevance: round(explanation.relevance),
            factors: Object.fromEntries(Object.entries(explanation.factors).map(([k, v]) => [k, round(v)])),
            contributions: Object.fromEntries(Object.entries(explanation.contributions).map(([k, v]) => [k, round(v)])),
            final_score: round(explanation.final),
            moved_by_history: explanation.moved,
          },
        }
      : {}),
    ...(candidate.flags.length ? { flags: candidate.flags } : {}),
  };
}
