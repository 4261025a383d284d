/**
 * Every custom message between the extension (client/), the gateway process (server/) and the
 * dashboard webview (webview/), declared once. Modelled on rust-analyzer's `lsp_ext.ts`.
 *
 * This file imports nothing: the webview bundles it for the browser, and the server and the client
 * use different vscode-jsonrpc versions, so the method descriptors are plain typed objects that
 * `client/gateway-client.ts` and `server/rpc/rpc-server.ts` hand to their own connection.
 */

/** A JSON-RPC request; `P` and `R` exist only for the type checker. */
export interface RequestType<P, R> {
  readonly method: string;
  readonly __types?: { params: P; result: R };
}

/** A JSON-RPC notification; `P` exists only for the type checker. */
export interface NotificationType<P> {
  readonly method: string;
  readonly __types?: { params: P };
}

const request = <P, R>(method: string): RequestType<P, R> => ({ method });
const notification = <P>(method: string): NotificationType<P> => ({ method });

// ---------------------------------------------------------------------------------------------
// Settings: sent as `initializationOptions` and with `workspace/didChangeConfiguration`.

export type IdleMode = 'minutes' | 'turns' | 'never';

/** The `grimoire.*` VS Code settings, as the client reads them. */
export interface ClientSettings {
  /** Add the bundled demo powers (filesystem, memory, everything). */
  demoPowers: boolean;
  /** Spell folders read in addition to `~/.grimoire` and the workspace's `.grimoire/`. */
  spellFolders: string[];
  /**
   * The gateway settings the user has set in VS Code, shaped like `~/.grimoire/settings.json`.
   * A key left unset keeps that file's value, or the default.
   */
  gateway: GatewaySettingsPatch;
}

export interface GatewaySettingsPatch {
  resolve?: { activateThreshold?: number; multipleThreshold?: number; weakThreshold?: number };
  upstream?: { callTimeoutMs?: number; idle?: { mode?: IdleMode; minutes?: number; turns?: number } };
  imports?: { vscode?: boolean; claudeDesktop?: boolean };
  discovery?: { enabled?: boolean };
}

export interface InitializationOptions {
  settings: ClientSettings;
  /** The first workspace folder: its `.grimoire/` spells and `.vscode/mcp.json` are read. */
  workspaceFolder?: string;
}

/** `workspace/didChangeConfiguration` params. */
export interface ConfigurationChange {
  settings: ClientSettings;
}

// ---------------------------------------------------------------------------------------------
// Payloads.

export type PowerState = 'stopped' | 'starting' | 'active' | 'crashed' | 'stopping';
export type PowerSourceKind = 'spell' | 'demo' | 'vscode-mcp' | 'claude-desktop';
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
  /** The power's server process. */
  state: PowerState;
  /** Activated: its tools are in the agent's list (a stopped server restarts on the next call). */
  active: boolean;
  /** The tools as last seen (from the catalog when the server has not run yet). */
  tools: ToolInfo[];
  /** Why it cannot start as configured (an unset variable, ...). */
  problems: string[];
  lastError?: string;
}

/** A spell or config that failed to load (the others still load). */
export interface LoadIssueInfo {
  file: string;
  field: string;
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

export interface ResolveParams {
  query: string;
}

export interface PowerScoreInfo {
  name: string;
  /** 0..1 */
  confidence: number;
  /** Raw relevance, comparable only within one query. */
  score: number;
  matchType: string;
  matchedTerms: string[];
  /** The tier this power's confidence alone falls in. */
  band: Tier;
}

export interface ResolveResult {
  query: string;
  tier: Tier;
  /** The powers the tier offers (the top one, the top 3, the top 5, or none). */
  candidates: string[];
  /** Every power, best first. */
  scores: PowerScoreInfo[];
  thresholds: { activateThreshold: number; multipleThreshold: number; weakThreshold: number };
  elapsedMs: number;
}

export interface PowerParams {
  name: string;
}

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

// Server -> client notifications, pushed from gateway events.

export const statusChanged = notification<GatewayStatus>('grimoire/statusChanged');
export const powersChanged = notification<PowersPayload>('grimoire/powersChanged');
export const powerStateChanged = notification<PowerStateChange>('grimoire/powerStateChanged');

/** The JSON-RPC error code of a request the gateway refused (unknown power, failed start, ...). */
export const GATEWAY_ERROR = -32001;

// ---------------------------------------------------------------------------------------------
// Dashboard webview <-> extension (postMessage).

/** What the dashboard keeps across hide / reload / reopen. */
export interface DashboardState {
  query: string;
  result?: ResolveResult;
}

export type DashboardRequest =
  | { type: 'ready' }
  | { type: 'resolve'; query: string }
  | { type: 'activate'; name: string }
  | { type: 'deactivate'; name: string };

export type DashboardUpdate =
  | { type: 'gateway'; status: GatewayStatus; powers: PowerInfo[] }
  | { type: 'restore'; state: DashboardState }
  | { type: 'resolved'; result: ResolveResult }
  | { type: 'failed'; action: 'resolve' | 'activate' | 'deactivate'; message: string };
