/**
 * The records the gateway process hands the extension and the dashboard (a power, its tools, a call,
 * a hint network, a token report, a tool review, ...): declared once, produced directly by the
 * server's modules, carried by the methods of extension-methods.ts, printed by the CLI's `--json`
 * and the REST API. Types and plain constants only: the webview bundles this file for the browser.
 */

export type PowerState = 'stopped' | 'starting' | 'active' | 'crashed' | 'stopping';
export type PowerSourceKind = 'spell' | 'demo' | 'vscode-mcp' | 'claude-desktop' | 'cursor-mcp' | 'kiro-power';
/** Each source as the Powers tree and the dashboard name it. */
export const POWER_SOURCE_LABELS: Record<PowerSourceKind, string> = {
  spell: 'spell',
  demo: 'demo',
  'vscode-mcp': 'mcp.json',
  'claude-desktop': 'Claude Desktop',
  'cursor-mcp': 'Cursor',
  'kiro-power': 'Kiro power',
};
export type Tier = 'activated' | 'multiple_matches' | 'weak_matches' | 'not_found';

export interface ToolAnnotationsInfo {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolInfo {
  name: string;
  title?: string;
  description: string;
  annotations: ToolAnnotationsInfo;
}

export interface PowerInfo {
  name: string;
  version: string;
  description: string;
  keywords: string[];
  source: { kind: PowerSourceKind; file: string; readOnly: boolean };
  /**
   * Which server it starts (a hash of command, arguments and environment, or of the URL): activation is
   * carried across restarts by it, not by name.
   */
  serverId: string;
  /** The power's server process. */
  state: PowerState;
  /**
   * Activated (by the editor or an agent): its tools go in the lists of the sessions it is active in (a
   * stopped server restarts on the next call).
   */
  active: boolean;
  /** The agents' MCP sessions whose tool list holds some of its tools now: what the agents see. */
  agentSessions: number;
  /** The tools as last seen (from the catalog when the server has not run yet). */
  tools: ToolInfo[];
  /** Why it cannot start as configured (an unset variable, a command not on PATH, ...). */
  problems: string[];
  /** Its stdio command is not on PATH (nor an executable file): it is never started until it is. */
  missingCommand?: string;
  lastError?: string;
  /** Tools held for review (changed since approved, or new) and not decided yet: not exposed, not callable. */
  awaitingReview?: string[];
  /** Tools kept blocked: by the user in the review, or by the settings (`tools.blocked`). Never exposed or called. */
  blocked?: string[];
  /**
   * Its server comes from the workspace or an imported config and waits for the user's approval of
   * this launch (`command`, secret values masked): it is never started until approved. `hash`
   * names the definition approved (a changed definition asks again).
   */
  awaitingLaunch?: { origin: 'workspace' | 'imported'; command: string; hash: string };
  /** The MCP revision its server spoke when it last ran ('2026-07-28': modern; a 2025 or 2024 one: legacy); unknown before it ran. */
  protocolVersion?: string;
}

/** A spell or config that failed to load (the others still load). */
export interface LoadIssueInfo {
  file: string;
  /** Dotted path of the offending field, or '' for the whole file. */
  field: string;
  /** 1-based, when the problem has a position in the file. */
  line?: number;
  column?: number;
  /** 'error' (the default): the file or entry did not load. 'warning': it loaded, or the problem alone would not stop it. */
  severity?: 'error' | 'warning';
  message: string;
  fix: string;
}

export interface PowersPayload {
  powers: PowerInfo[];
  issues: LoadIssueInfo[];
}

export type GatewayHealth = 'starting' | 'ready' | 'restarting' | 'failed';

export interface GatewayStatus {
  health: GatewayHealth;
  /** What went wrong, when `health` is 'failed'. */
  message?: string;
  /** The MCP endpoint (no token: ask `grimoire/endpoint`). */
  url?: string;
  /** Grows each time the endpoint is served anew (a new port and token). */
  endpointVersion: number;
  powers: number;
  activePowers: number;
  /** How requests are matched now (absent until the gateway runs): lexical only, with why, or by meaning as well. */
  matching?: ResolverStatusInfo;
  /** Powers whose server is crashed. */
  crashedPowers: number;
  issues: number;
}

/** The MCP endpoint with its bearer token. The token is a secret: never log it. */
export interface Endpoint {
  url: string;
  token: string;
  version: number;
}

export interface PowerStateChange {
  power: string;
  state: PowerState;
  detail?: string;
}

/** The ranking's factors (each weighted; the weights sum to 1). */
export interface RankingWeightsInfo {
  relevance: number;
  success: number;
  popularity: number;
  performance: number;
  rating: number;
}

/** "Why this power": what matched, and what history added. */
export interface ScoreExplanation {
  /** Raw lexical relevance (BM25F). */
  lexicalScore: number;
  /** The lexical score over the best the query could reach (0..1). */
  strength?: number;
  /** IDF-weighted share of the query's subject words matched (0..1). */
  coverage?: number;
  /** Cosine similarity of query and power embeddings, when a model is loaded. */
  semantic?: number;
  /** Relevance relative to the most relevant power (0..1). */
  relativeRelevance: number;
  /** The learned factors, 0..1 each (0.5: no history). */
  factors: Omit<RankingWeightsInfo, 'relevance'> & { calls: number };
  /** Each factor's weighted share of the final score. */
  contributions: RankingWeightsInfo;
  finalScore: number;
  /** History moved this power among candidates of close relevance. */
  movedByHistory: boolean;
}

export interface PowerScoreInfo {
  name: string;
  /** 0..1 */
  confidence: number;
  /** Raw relevance, comparable only within one query. */
  score: number;
  matchType: string;
  /** Search terms (stems, as the resolver compares them). */
  matchedTerms: string[];
  /** The same matches in the user's own words, for display. */
  matchedWords: string[];
  /** The tier this power's confidence alone falls in. */
  band: Tier;
  /** Why the power may not work here (missing command, unset variable, unmet `when`); never auto-activated then. */
  flags: string[];
  /** With `explain: true`. */
  explanation?: ScoreExplanation;
}

export interface ResolverStatusInfo {
  mode: 'hybrid' | 'lexical-only';
  detail: string;
  /** The embedding model: turned off in settings, loading, ready, or unavailable here (not downloaded, no runtime). */
  semantic: SemanticModelState;
}

export type SemanticModelState = 'off' | 'loading' | 'ready' | 'unavailable';

export interface ResolveResult {
  query: string;
  tier: Tier;
  /** The powers the tier offers (the top one, the top 3, the top 5, or none). */
  candidates: string[];
  /** Every power, best first. */
  scores: PowerScoreInfo[];
  thresholds: { activateThreshold: number; multipleThreshold: number; weakThreshold: number };
  elapsedMs: number;
  /** Lexical-only or hybrid, and why. */
  resolver?: ResolverStatusInfo;
}

// ---------------------------------------------------------------------------------------------
// Activity: every call through the gateway, rated by the user.

export type IntentType = 'read' | 'write' | 'destructive';
export type ActivityStatus = 'ok' | 'error' | 'rejected' | 'suggested';
export type ActivityDecision = 'allowed' | 'warned' | 'rejected';
/** Thumbs up (1), down (-1), none (0). */
export type ActivityRating = -1 | 0 | 1;

export const INTENT_TYPES: readonly IntentType[] = ['read', 'write', 'destructive'];
export const ACTIVITY_STATUSES: readonly ActivityStatus[] = ['ok', 'error', 'rejected', 'suggested'];

/** Every field narrows; none set: every call. */
export interface ActivityFilterInfo {
  intentType?: IntentType;
  status?: ActivityStatus;
  power?: string;
  tool?: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  /** Default 50, at most 1000. */
  limit?: number;
}

export interface ActivityInfo {
  id: string;
  /** Epoch ms. */
  at: number;
  session: string;
  power: string;
  tool: string;
  /** 'direct' (`<power>__<tool>`), or the intent-declared variant: read / write / destructive. */
  variant: string;
  operationType?: string;
  dataSensitivity?: string;
  reason?: string;
  decision: ActivityDecision;
  decisionReason?: string;
  /** 'suggested': a prerequisite was suggested instead, and the tool was not called. */
  status: ActivityStatus;
  error?: string;
  latencyMs: number;
  resultBytes: number;
  /** The spell marks this tool `audit: true`. */
  audit: boolean;
  /** The gateway user whose session made the call (absent: the owner). */
  user?: string;
  rating: ActivityRating;
}

export interface ActivityPage {
  filter: ActivityFilterInfo;
  /** Newest first. */
  entries: ActivityInfo[];
}

export interface ActivityRated {
  id: string;
  rating: ActivityRating;
}

// ---------------------------------------------------------------------------------------------
// Recommendation quality: MRR and precision@k of what the agent used, the weights.

export interface RecommendationMetricsInfo {
  recommendations: number;
  /** Recommendations the agent followed (used one of the candidates). */
  followed: number;
  mrr: number | null;
  precisionAt1: number | null;
  precisionAt3: number | null;
}

export interface RecommendationStats {
  all: RecommendationMetricsInfo;
  resolveIntent: RecommendationMetricsInfo;
  retrieveTools: RecommendationMetricsInfo;
  /** The weights in use (tuned, or the defaults). */
  weights: RankingWeightsInfo;
  defaultWeights: RankingWeightsInfo;
  /** Followed recommendations tuning needs. */
  minSamples: number;
  /** Learned factors re-rank close candidates (setting `ranking.learn`). */
  learning: boolean;
}

export interface TuneWeightsResult {
  tuned: boolean;
  samples: number;
  mrrBefore: number;
  mrrAfter: number;
  weights: RankingWeightsInfo;
  /** Why nothing changed. */
  reason?: string;
  stats: RecommendationStats;
}

// ---------------------------------------------------------------------------------------------
// Hints: the hint network and the hints fired.

export type HintKind = 'prerequisite' | 'next_action' | 'error_hint';
export type HintSource = 'declared' | 'learned';
export type HintOutcome = 'followed' | 'ignored' | 'proceeded';

/** A tool, `power:tool`. */
export interface HintNodeInfo {
  id: string;
  power: string;
  tool: string;
  /** Calls in the activity log. */
  calls: number;
}

export interface HintEdgeInfo {
  /** Prerequisite edges run from the prerequisite to the tool; next actions from the tool to the next one. */
  from: string;
  to: string;
  kind: 'prerequisite' | 'next_action';
  source: HintSource;
  /** How often agents actually went from `from` to `to`. */
  weight: number;
  followRate: number | null;
}

export interface HintFollowRateInfo {
  power: string;
  tool: string;
  kind: HintKind;
  hint: string;
  source: HintSource;
  shown: number;
  followed: number;
  ignored: number;
  proceeded: number;
  /** followed / resolved; null until one was resolved. */
  rate: number | null;
}

export interface HintEventInfo {
  at: number;
  session: string;
  power: string;
  tool: string;
  kind: HintKind;
  /** The missing prerequisites, the suggested tools, or the error hint's key. */
  hint: string;
  source: HintSource;
  suggested: string[];
  /** null while the session has not made its next call. */
  outcome: HintOutcome | null;
}

export interface HintsPayload {
  scope: 'active' | 'all';
  powers: string[];
  nodes: HintNodeInfo[];
  edges: HintEdgeInfo[];
  followRates: HintFollowRateInfo[];
  /** Newest first. */
  recent: HintEventInfo[];
}

// ---------------------------------------------------------------------------------------------
// Token savings: summaries and lazy activation.

export interface TokenTotals {
  results: number;
  rawTokens: number;
  deliveredTokens: number;
  savedTokens: number;
  /** 1 - delivered / raw; 0 when nothing was summarized. */
  reduction: number;
}

export interface TokenReportInfo {
  tokenizer: string;
  summarized: TokenTotals;
  /** Per UTC day (YYYY-MM-DD), oldest first. */
  byDay: Array<TokenTotals & { day: string }>;
  /** Most saved first. */
  byPower: Array<TokenTotals & { power: string }>;
  bySummarizer: Record<string, number>;
  cache: { hits: number; misses: number; similar: number; hitRate: number };
  notStored: number;
  artifacts: { count: number; bytes: number; maxBytes: number; ttlMinutes: number };
  /**
   * What one model request carries (request-model.ts): the gateway's tool
   * list now against every configured power's tools listed directly (the powers configured now,
   * not disabled; `unlisted` of them never listed their tools, so they count 0 here).
   */
  toolsList: {
    gateway: { tools: number; tokens: number };
    configured: { powers: number; unlisted: number; tools: number; tokens: number };
    /** The tools of `listedTwice`, together: VS Code's agent gets them on every request besides the gateway's list. */
    alsoDirect: { tools: number; tokens: number };
    /** Per request, against the gateway's list plus `alsoDirect`; negative when those are the longer. */
    savedTokens: number;
    /** 1 - (gateway + alsoDirect) / direct, 0 when nothing is configured; negative when the former are the longer. */
    reduction: number;
    /** Powers VS Code also offers its agent directly (from its mcp.json): their tools are on every request besides Grimoire's. */
    listedTwice: ListedTwiceInfo[];
  };
  /**
   * Per MCP session, newest first: what its agent read through the gateway against direct
   * exposure of the configured powers, counted per model request (request-model.ts).
   */
  sessions: {
    rows: SessionTokensInfo[];
    totals: {
      gatewayTokens: number;
      directTokens: number;
      /** Negative when going through the gateway cost more. */
      savedTokens: number;
      reduction: number;
      /** Requests for the gateway's own tools (resolve_intent, activate_power, ...): direct exposure makes none. */
      extraRequests: number;
      /**
       * What the VS Code sessions' requests carried of the tools VS Code lists directly besides the gateway's
       * (counted in gatewayTokens).
       */
      alsoDirectTokens: number;
    };
  };
}

export interface ListedTwiceInfo {
  power: string;
  /** The mcp.json that defines it. */
  file: string;
  tools: number;
  tokens: number;
}

export interface SessionTokensInfo {
  session: string;
  startedAt: number;
  lastAt: number;
  /** `requests`: one per call; `toolsListTokens`: the lists those requests carried; `toolsLists`: tools/list answers served. */
  /**
   * `alsoDirectTokens`: the tools VS Code lists directly besides the gateway's, on each request of a VS Code
   * session (counted in `tokens`).
   */
  gateway: {
    requests: number;
    toolsLists: number;
    toolsListTokens: number;
    alsoDirectTokens: number;
    answers: number;
    answerTokens: number;
    results: number;
    resultTokens: number;
    tokens: number;
  };
  /** One request per power's result, each carrying every configured power's tools. */
  direct: { requests: number; toolsListTokens: number; resultTokens: number; tokens: number };
  savedTokens: number;
}

// ---------------------------------------------------------------------------------------------
// Tool review (pinning and quarantine).

/** What changed between the approved version of a tool and the one its server now offers. */
export interface ToolDiff {
  description?: { old: string; new: string };
  schema?: {
    added: string[];
    removed: string[];
    changed: string[];
    requiredAdded: string[];
    requiredRemoved: string[];
  };
  annotations?: Array<{ key: string; old: unknown; new: unknown }>;
}

/** Instruction-like text aimed at the agent, found in a description: a heuristic that informs, never blocks. */
export interface SuspiciousFlag {
  kind: 'hidden-instruction' | 'override' | 'credentials' | 'concealment';
  excerpt: string;
}

export interface ToolVersionInfo {
  description?: string;
  inputSchema: unknown;
  annotations?: Record<string, unknown>;
}

export interface ToolReviewInfo {
  power: string;
  tool: string;
  kind: 'changed' | 'added';
  /** 'rejected': the user chose to keep it blocked. */
  status: 'pending' | 'rejected';
  seenAt: number;
  /** One line per change, e.g. "parameters added: note". */
  changes: string[];
  diff: ToolDiff;
  suspicious: SuspiciousFlag[];
  old?: ToolVersionInfo;
  new: ToolVersionInfo;
}

export interface ToolChangesPayload {
  reviews: ToolReviewInfo[];
}

/** A tool Grimoire believes only reads (by its name) that no annotation declares: the user may confirm it once. */
export interface ReadCandidateInfo {
  power: string;
  tool: string;
  description: string;
  /** 'new': never confirmed; 'changed': confirmed, but the tool changed since; 'confirmed': read-only by the user's word. */
  status: 'new' | 'changed' | 'confirmed';
}

export interface ReadCandidatesPayload {
  reads: ReadCandidateInfo[];
  /** Tools that could not be confirmed, and why (an answer to a confirmation). */
  refused?: string[];
}
