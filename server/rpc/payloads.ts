/** The protocol's payloads, built from the parts each one names. */
import type { Tool } from '../util/mcp-types.js';
import type { ResolveOutcome } from '../gateway/resolution.js';
import { catalogRarityOf, describePower } from '../gateway/power-documents.js';
import type { WordRarity } from '../powers/derive.js';
import { serverIdentity } from '../powers/import-common.js';
import type { PowerDefinition, RegistrySnapshot } from '../powers/types.js';
import type { TierThresholds } from '../resolve/types.js';
import type { ResolverStatus } from '../resolve/hybrid-resolver.js';
import type {
  GatewayHealth,
  GatewayStatus,
  PowerInfo,
  PowersPayload,
  ResolveResult,
  Tier,
  ToolInfo,
} from '../../protocol/records.js';
import { scoreExplanation } from './ranking-payloads.js';
import { queryWordsFor } from '../text/terms.js';
import { commandExists, lookupFor } from '../util/command-lookup.js';
import type { UpstreamManager } from '../upstream/manager.js';
import type { ToolTrust } from '../trust/tool-trust.js';
import type { ToolPolicy } from '../trust/tool-policy.js';
import type { SessionRegistry } from '../gateway/sessions/session-registry.js';
import type { LaunchApprovals } from '../trust/launch-approvals.js';

/** What a power's entry reads: its connection's state, its tools as last listed, what awaits review, whether it is active. */
export interface PowerInfoPorts {
  manager: Pick<UpstreamManager, 'statuses'>;
  trust: Pick<ToolTrust, 'quarantinedOf'>;
  /** Which tools the settings block (`tools.blocked`). */
  policy: Pick<ToolPolicy, 'settingsRefusal'>;
  /** Which launches wait for the user's approval. */
  launches: Pick<LaunchApprovals, 'waiting'>;
  toolsOf(name: string): Tool[];
  isActive(name: string): boolean;
  /** The window's state and every MCP session's (SessionRegistry.all). */
  sessions: Pick<SessionRegistry, 'all'>;
}

/** The MCP sessions (not the window) whose tool list holds some of the power's tools. */
function agentSessions(ports: Pick<PowerInfoPorts, 'sessions'>, power: string): number {
  return ports.sessions
    .all()
    .filter((state) => state.id !== '' && [...state.exposed.values()].some((tool) => tool.power === power)).length;
}

export function powersPayload(ports: PowerInfoPorts, snapshot: RegistrySnapshot): PowersPayload {
  const catalogRarity = catalogRarityOf(snapshot.powers, (name) => ports.toolsOf(name));
  return {
    powers: snapshot.powers.map((power) => powerInfo(ports, power, catalogRarity)),
    issues: snapshot.issues,
  };
}

/** The stdio command, when it cannot be found (the power is then never started by discovery). */
function missingCommand(power: PowerDefinition): string | undefined {
  return power.server.transport === 'stdio' &&
    power.problems.length === 0 &&
    !commandExists(power.server.command, lookupFor(power.server.env, power.server.cwd))
    ? power.server.command
    : undefined;
}

/** `rarity`: the catalog's (catalogRarityOf), so an imported power is described as the resolver indexes it. */
export function powerInfo(ports: PowerInfoPorts, power: PowerDefinition, rarity?: WordRarity): PowerInfo {
  const status = ports.manager.statuses().find((s) => s.name === power.name);
  const tools = ports.toolsOf(power.name);
  // Each listed tool is available, held for review, or blocked (by the review or the settings; blocked wins).
  const listed = new Set(tools.map((tool) => tool.name));
  const blockedBySettings = tools
    .filter((tool) => ports.policy.settingsRefusal(power.name, tool.name) === 'blocked')
    .map((tool) => tool.name);
  const blocked = [
    ...new Set([
      ...ports.trust.quarantinedOf(power.name, 'rejected').filter((tool) => listed.has(tool)),
      ...blockedBySettings,
    ]),
  ].sort();
  const held = ports.trust.quarantinedOf(power.name, 'pending').filter((tool) => !blocked.includes(tool));
  const words = describePower(power, tools, rarity);
  const missing = missingCommand(power);
  const launch = ports.launches.waiting(power);
  return {
    name: power.name,
    version: power.version,
    description: words.description,
    keywords: words.keywords,
    source: { kind: power.source.kind, file: power.source.file, readOnly: power.source.readOnly },
    serverId: serverIdentity(power.server),
    state: status?.state ?? 'stopped',
    active: ports.isActive(power.name),
    agentSessions: agentSessions(ports, power.name),
    tools: tools.map(toolInfo),
    problems: [
      ...power.problems,
      ...(missing
        ? [`command '${missing}' was not found on PATH: install it, or give its full path in ${power.source.file}`]
        : []),
    ],
    ...(missing ? { missingCommand: missing } : {}),
    ...(status?.lastError ? { lastError: status.lastError } : {}),
    ...(held.length ? { awaitingReview: held } : {}),
    ...(blocked.length ? { blocked } : {}),
    ...(launch ? { awaitingLaunch: launch } : {}),
    ...(status?.protocolVersion ? { protocolVersion: status.protocolVersion } : {}),
  };
}

function toolInfo(tool: Tool): ToolInfo {
  const a = tool.annotations ?? {};
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description ?? '',
    annotations: {
      ...(a.readOnlyHint !== undefined ? { readOnlyHint: a.readOnlyHint } : {}),
      ...(a.destructiveHint !== undefined ? { destructiveHint: a.destructiveHint } : {}),
      ...(a.idempotentHint !== undefined ? { idempotentHint: a.idempotentHint } : {}),
      ...(a.openWorldHint !== undefined ? { openWorldHint: a.openWorldHint } : {}),
    },
  };
}

export interface StatusInput {
  health: GatewayHealth;
  message?: string;
  url?: string;
  endpointVersion: number;
}

export function gatewayStatus(
  input: StatusInput,
  ports: (Pick<PowerInfoPorts, 'manager' | 'isActive'> & { resolverStatus(): ResolverStatus }) | undefined,
  snapshot: RegistrySnapshot | undefined,
): GatewayStatus {
  const powers = snapshot?.powers ?? [];
  const crashed = new Set((ports?.manager.statuses() ?? []).filter((s) => s.state === 'crashed').map((s) => s.name));
  return {
    health: input.health,
    ...(input.message ? { message: input.message } : {}),
    ...(input.url ? { url: input.url } : {}),
    endpointVersion: input.endpointVersion,
    powers: powers.length,
    activePowers: ports ? powers.filter((power) => ports.isActive(power.name)).length : 0,
    ...(ports ? { matching: ports.resolverStatus() } : {}),
    crashedPowers: powers.filter((power) => crashed.has(power.name)).length,
    issues: snapshot?.issues.length ?? 0,
  };
}

/** The tier a single confidence falls in, by the same thresholds as the whole query's tier. */
export function bandOf(confidence: number, thresholds: TierThresholds): Tier {
  if (confidence >= thresholds.activateThreshold) return 'activated';
  if (confidence >= thresholds.multipleThreshold) return 'multiple_matches';
  if (confidence >= thresholds.weakThreshold) return 'weak_matches';
  return 'not_found';
}

export function resolveResult(
  outcome: ResolveOutcome,
  thresholds: TierThresholds,
  elapsedMs: number,
  resolver?: ResolverStatus,
): ResolveResult {
  return {
    query: outcome.query,
    tier: outcome.tier,
    candidates: outcome.candidates.map((candidate) => candidate.name),
    scores: outcome.ranked.map((score) => {
      const explanation = scoreExplanation(score);
      return {
        name: score.name,
        confidence: score.confidence,
        score: score.score,
        matchType: score.matchType,
        matchedTerms: [...score.matchedTerms],
        matchedWords: queryWordsFor(outcome.query, score.matchedTerms),
        band: bandOf(score.confidence, thresholds),
        flags: [...score.flags],
        ...(explanation ? { explanation } : {}),
      };
    }),
    thresholds: {
      activateThreshold: thresholds.activateThreshold,
      multipleThreshold: thresholds.multipleThreshold,
      weakThreshold: thresholds.weakThreshold,
    },
    elapsedMs: Math.round(elapsedMs * 1000) / 1000,
    ...(resolver ? { resolver } : {}),
  };
}
