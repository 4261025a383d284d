/**
 * The JSON-RPC methods between the extension (client/) and the gateway process (server/rpc/), each
 * declared once with its params and result. Modelled on rust-analyzer's `lsp_ext.ts`.
 *
 * Imports only types: the method descriptors are plain typed objects that `client/gateway-client.ts`
 * and `server/rpc/rpc-server.ts` hand to their own connection, each side through one typed wrapper
 * per direction (a request where a notification is meant, or params of another type, do not compile).
 */
import type { ClientSettings } from './client-settings-schema.js';
import type {
  ActivityFilterInfo,
  ActivityInfo,
  ActivityPage,
  ActivityRated,
  ActivityRating,
  Endpoint,
  GatewayStatus,
  HintsPayload,
  PowerInfo,
  PowerStateChange,
  PowersPayload,
  RecommendationStats,
  ResolveResult,
  TokenReportInfo,
  ToolChangesPayload,
  ReadCandidatesPayload,
  TuneWeightsResult,
} from './records.js';

/** A JSON-RPC request; `P` and `R` exist only for the type checker. */
export interface RequestType<P, R> {
  readonly kind: 'request';
  readonly method: string;
  readonly __types?: { params: P; result: R };
}

/** A JSON-RPC notification; `P` exists only for the type checker. */
export interface NotificationType<P> {
  readonly kind: 'notification';
  readonly method: string;
  readonly __types?: { params: P };
}

const request = <P, R>(method: string): RequestType<P, R> => ({ kind: 'request', method });
const notification = <P>(method: string): NotificationType<P> => ({ kind: 'notification', method });

/** `workspace/didChangeConfiguration` params; `initializationOptions` are declared in client-settings-schema.ts. */
export interface ConfigurationChange {
  settings: ClientSettings;
}

// ---------------------------------------------------------------------------------------------
// Params and results that are not records.

export interface ResolveParams {
  query: string;
  /** Attach each power's factor contributions ("why this power"). */
  explain?: boolean;
}

export interface PowerParams {
  name: string;
}

export interface RateActivityParams {
  id: string;
  rating: ActivityRating;
}

export interface HintsParams {
  /** 'active' (default): the active powers' network; 'all': every power's. */
  scope?: 'active' | 'all';
  /** Recent hints to return (default 30). */
  recent?: number;
}

/** Client -> server: whether a VS Code language model can be asked (changes as models come and go). */
export interface LanguageModelAvailability {
  available: boolean;
  /** The models' names, for the log. */
  models: string[];
}

export interface LanguageModelParams {
  prompt: string;
}

export interface LanguageModelReply {
  text: string;
  model: string;
}

/** A tool (`tool` set) or every held tool of a power. */
export interface LaunchApprovalParams {
  name: string;
  /** The definition the user saw (PowerInfo.awaitingLaunch.hash): a definition changed since is not approved. */
  hash: string;
}

export interface ConfirmReadsParams {
  /** `power:tool` each. */
  tools: string[];
}

export interface ToolReviewParams {
  power: string;
  tool?: string;
}

/** Without a model: the one in the gateway's settings (resolve.semantic.model). */
export interface DownloadModelParams {
  model?: string;
  /** A mirror instead of https://huggingface.co/. */
  remoteHost?: string;
  /**
   * An absolute folder on this machine holding the model's files: loaded from there to check it, then copied
   * into the data folder as the model.
   */
  fromFolder?: string;
}

/**
 * What a new spell's keywords are made from (New Spell File from an mcp.json entry, Route Through
 * Grimoire Alone): the gateway picks the telling words with the resolver's tokenizer and lexicon.
 */
export interface SpellKeywordsParams {
  /** The server's key in its mcp.json. */
  key: string;
  /** Its tools, when the gateway has listed them. */
  toolNames: string[];
  /** What it does, when known (not a placeholder). */
  description?: string;
  /** The npm package an `npx` entry runs, without its scope and the usual "server-"/"mcp-" prefixes. */
  packageName?: string;
}

export interface DownloadProgress {
  file: string;
  /** 0-100 of this file, when its size is known. */
  percent?: number;
}

/** `folder`: where the model is now (the data folder's models/, or the folder named). */
export type DownloadOutcome =
  { ok: true; model: string; folder: string; files: string[] } | { ok: false; model: string; message: string };

// ---------------------------------------------------------------------------------------------
// Client -> server requests.

export const getStatus = request<null, GatewayStatus>('grimoire/status');
export const listPowers = request<null, PowersPayload>('grimoire/listPowers');
export const activatePower = request<PowerParams, PowerInfo>('grimoire/activatePower');
export const deactivatePower = request<PowerParams, PowerInfo>('grimoire/deactivatePower');
export const resolveIntent = request<ResolveParams, ResolveResult>('grimoire/resolve');
/** Reads every power source again now (the folders are watched too). */
export const reloadPowers = request<null, PowersPayload>('grimoire/reload');
/** Waits until the MCP endpoint is served. */
export const getEndpoint = request<null, Endpoint>('grimoire/endpoint');
export const listActivity = request<ActivityFilterInfo, ActivityPage>('grimoire/activity');
/** Rating feeds the ranking's rating factor. */
export const rateActivity = request<RateActivityParams, ActivityRated>('grimoire/rateActivity');
export const getRecommendationStats = request<null, RecommendationStats>('grimoire/recommendationStats');
/** Refits the ranking weights on the followed recommendations and saves them when they improve MRR. */
export const tuneWeights = request<null, TuneWeightsResult>('grimoire/tuneWeights');
export const getHints = request<HintsParams, HintsPayload>('grimoire/hints');
export const getTokenReport = request<null, TokenReportInfo>('grimoire/tokenReport');
/** Every tool awaiting review or kept blocked. */
export const listToolChanges = request<null, ToolChangesPayload>('grimoire/toolChanges');
/** Pins the reviewed version: the tool is exposed again. Answers with what still awaits review. */
export const approveToolChange = request<ToolReviewParams, ToolChangesPayload>('grimoire/approveTool');
/** Keeps the tool blocked. Answers with what still awaits review. */
export const rejectToolChange = request<ToolReviewParams, ToolChangesPayload>('grimoire/rejectTool');
/** The user approved a power's launch (the command the modal showed, named by its hash): its server may start from now on. */
export const approveLaunch = request<LaunchApprovalParams, PowerInfo>('grimoire/approveLaunch');
/** The tools Grimoire believes only read that no annotation declares, and where the user's confirmation stands. */
export const listReadCandidates = request<null, ReadCandidatesPayload>('grimoire/readCandidates');
/** The user confirms these tools (`power:tool`) read-only, pinned to their current version. Answers with the candidates after it. */
export const confirmReads = request<ConfirmReadsParams, ReadCandidatesPayload>('grimoire/confirmReads');

/** Fetches the semantic model into the data folder (progress: modelDownloadProgress); the embedder loads it at the gateway's next start. */
export const downloadModel = request<DownloadModelParams, DownloadOutcome>('grimoire/downloadModel');
/** 3 to 20 keywords for a new spell: telling words first, the template's placeholders filling up to 3. */
export const spellKeywords = request<SpellKeywordsParams, string[]>('grimoire/spellKeywords');

// Client -> server notifications.

/** The LSP notification, with Grimoire's settings as its params: the gateway applies them (restarting when needed). */
export const didChangeConfiguration = notification<ConfigurationChange>('workspace/didChangeConfiguration');
export const languageModelAvailability = notification<LanguageModelAvailability>('grimoire/languageModelAvailability');

// Server -> client requests.

/** One prompt to VS Code's language model; rejected when none is available or the user refused consent. */
export const languageModelRequest = request<LanguageModelParams, LanguageModelReply>('grimoire/languageModel');

// Server -> client notifications, pushed from gateway events.

export const statusChanged = notification<GatewayStatus>('grimoire/statusChanged');
export const powersChanged = notification<PowersPayload>('grimoire/powersChanged');
export const powerStateChanged = notification<PowerStateChange>('grimoire/powerStateChanged');
/** Each call, as soon as it is recorded (rating 0). */
export const activityRecorded = notification<ActivityInfo>('grimoire/activityRecorded');
export const activityRated = notification<ActivityRated>('grimoire/activityRated');
/** The active powers' hint network and recent hints, after a hint fired or resolved, a call or an activation. */
export const hintsChanged = notification<HintsPayload>('grimoire/hintsChanged');
/** After calls (debounced): MRR, precision@k and weights. */
export const recommendationStatsChanged = notification<RecommendationStats>('grimoire/recommendationStatsChanged');
/** After calls and tool list changes (debounced). */
export const tokenReportChanged = notification<TokenReportInfo>('grimoire/tokenReportChanged');
/** While downloadModel runs: one file's progress. */
export const modelDownloadProgress = notification<DownloadProgress>('grimoire/modelDownloadProgress');
/** Tools just put in quarantine (only the new ones). */
export const toolsQuarantined = notification<ToolChangesPayload>('grimoire/toolsQuarantined');

/** The JSON-RPC error code of a request the gateway refused (unknown power, failed start, ...). */
export const GATEWAY_ERROR = -32001;
