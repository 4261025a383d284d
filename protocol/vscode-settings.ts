/**
 * Every `grimoire.*` VS Code setting, declared once: key, type, bounds, default and description.
 * package.json's `contributes.configuration` and the Marketplace settings table are generated from
 * this list (`npm run docs:settings`), the client reads and sends the keys it names, the gateway
 * validates them with zod built from it (server/config/declared-fields.ts) and the protocol's
 * `ClientSettings` is shaped by it. How to add a setting: docs/ARCHITECTURE.md, "Settings, declared once".
 *
 * Plain data, no zod: the extension bundles this file.
 */

/** A default fitted by `grimoire calibrate` (server/resolve/calibration.json): the gateway supplies it. */
export const CALIBRATED: unique symbol = Symbol('calibrated');

interface Declared {
  /**
   * Who reads it. `gateway`: a key of the gateway's settings, at the same path as in
   * `$GRIMOIRE_HOME/settings.json`; the extension sends it only when the user set it, over that
   * file. `client`: a field of `ClientSettings`, always sent. `extension`: read by the extension alone.
   */
  to: 'gateway' | 'client' | 'extension';
  markdownDescription: string;
  /**
   * `machine`: only the user's own settings set it, never a workspace's `.vscode/settings.json` (a
   * setting that names programs to run must not come from a folder an agent can write).
   */
  scope?: 'machine';
}

export type SettingDeclaration = Declared &
  (
    | { type: 'boolean'; default: boolean }
    | {
        type: 'number' | 'integer';
        default: number | typeof CALIBRATED;
        minimum?: number;
        exclusiveMinimum?: number;
        maximum?: number;
      }
    | { type: 'string'; enum: readonly [string, ...string[]]; enumDescriptions: readonly string[]; default: string }
    | { type: 'array'; items: { type: 'string' }; default: readonly string[] }
  );

/** In the order the Settings editor and the Marketplace table show them. */
export const VSCODE_SETTINGS = {
  demoPowers: {
    to: 'client',
    type: 'boolean',
    default: false,
    markdownDescription:
      'Add the bundled demo powers to try Grimoire without configuring anything: ' +
      '`filesystem` (the open workspace folder; a small demo project when no folder is open), ' +
      '`memory` and `everything`.',
  },
  spellFolders: {
    to: 'client',
    scope: 'machine',
    type: 'array',
    items: { type: 'string' },
    default: [],
    markdownDescription:
      'More folders with `*.spell.yaml` files, read besides the Grimoire folder (`$GRIMOIRE_HOME`; ' +
      '`~/.grimoire` if it exists, else e.g. `~/.config/grimoire`, ' +
      "`~/Library/Application Support/Grimoire`, `%APPDATA%\\Grimoire`) and the workspace's `.grimoire/`. " +
      'Relative paths are relative to the first workspace folder; `~` is your home folder. ' +
      'Set in your user settings only: a workspace cannot add spell folders, ' +
      'and a spell inside the workspace runs only once you approved its command.',
  },
  'imports.vscode': {
    to: 'gateway',
    type: 'boolean',
    default: true,
    markdownDescription: "Offer the servers of VS Code's `mcp.json` (user and workspace) as read-only powers.",
  },
  'imports.claudeDesktop': {
    to: 'gateway',
    type: 'boolean',
    default: true,
    markdownDescription: "Offer the servers of Claude Desktop's `claude_desktop_config.json` as read-only powers.",
  },
  'imports.cursor': {
    to: 'gateway',
    type: 'boolean',
    default: true,
    markdownDescription:
      "Offer the servers of Cursor's `mcp.json` (`~/.cursor/mcp.json` and the workspace's `.cursor/mcp.json`) as read-only powers.",
  },
  'imports.kiro': {
    to: 'gateway',
    type: 'boolean',
    default: true,
    markdownDescription:
      "Offer Kiro power folders (`~/.kiro/powers/*/` and the workspace's `.kiro/powers/*/`: " +
      '`POWER.md` and `mcp.json`) as read-only powers.',
  },
  'resolve.activateThreshold': {
    to: 'gateway',
    type: 'number',
    minimum: 0,
    maximum: 1,
    default: CALIBRATED,
    markdownDescription:
      'Confidence at or above which `resolve_intent` activates the best power at once (tier `activated`).',
  },
  'resolve.multipleThreshold': {
    to: 'gateway',
    type: 'number',
    minimum: 0,
    maximum: 1,
    default: 0.5,
    markdownDescription:
      'Confidence at or above which `resolve_intent` offers the top 3 powers to choose from (tier `multiple_matches`).',
  },
  'resolve.weakThreshold': {
    to: 'gateway',
    type: 'number',
    minimum: 0,
    maximum: 1,
    default: 0.3,
    markdownDescription:
      'Confidence at or above which `resolve_intent` still offers the top 5 (tier `weak_matches`); ' +
      'below it, `not_found` lists every power.',
  },
  'upstream.idle.mode': {
    to: 'gateway',
    type: 'string',
    enum: ['minutes', 'turns', 'never'],
    enumDescriptions: [
      "Stop a power's server after some minutes without calls.",
      "Stop a power's server after some agent turns without using it.",
      'Keep servers running until they are deactivated.',
    ],
    default: 'minutes',
    markdownDescription:
      "When to stop an idle power's server. Its tools stay in the agent's list; the next call starts it again.",
  },
  'upstream.idle.minutes': {
    to: 'gateway',
    type: 'number',
    exclusiveMinimum: 0,
    default: 10,
    markdownDescription: "Minutes without a call before a power's server is stopped (idle mode `minutes`).",
  },
  'upstream.idle.turns': {
    to: 'gateway',
    type: 'integer',
    exclusiveMinimum: 0,
    default: 5,
    markdownDescription: 'Agent turns without using a power before its server is stopped (idle mode `turns`).',
  },
  'upstream.callTimeoutMs': {
    to: 'gateway',
    type: 'integer',
    exclusiveMinimum: 0,
    default: 60000,
    markdownDescription:
      'Milliseconds a tool call may take before it fails with a timeout (the other calls are not affected).',
  },
  'discovery.enabled': {
    to: 'gateway',
    type: 'boolean',
    default: true,
    markdownDescription:
      'Start each power that has never run once, in the background, to learn its tools, so that it can be ranked before its first use.',
  },
  'summaries.languageModel': {
    to: 'extension',
    type: 'boolean',
    default: true,
    markdownDescription:
      "Let the gateway summarize large tool results with VS Code's language model (e.g. Copilot), " +
      'when one is available. VS Code asks for your consent the first time. ' +
      "Without it, large results are summarized locally (or by the client's model through MCP sampling, " +
      'when `#grimoire.intel.summarizers.samplingInVsCode#` is on).',
  },
  'intel.readWholeTokens': {
    to: 'gateway',
    type: 'integer',
    minimum: 256,
    default: 8000,
    markdownDescription:
      'A file or page the agent asked to read comes back whole up to this many tokens; ' +
      'a longer one is summarized and kept whole as an artifact. ' +
      'Bulk output (listings, logs, tables, JSON collections) is summarized from about 2 KB.',
  },
  'intel.summarizers.timeBudgetMs': {
    to: 'gateway',
    type: 'integer',
    exclusiveMinimum: 0,
    default: 3000,
    markdownDescription:
      'Milliseconds a language model may take to summarize a result before the local summarizer answers ' +
      'instead: a consent dialog or model picker never holds a call open.',
  },
  'intel.summarizers.samplingInVsCode': {
    to: 'gateway',
    type: 'boolean',
    default: false,
    markdownDescription:
      "Also ask Copilot's model through MCP sampling to summarize (VS Code then shows a model picker and " +
      "asks for consent). Off: VS Code's language model (`#grimoire.summaries.languageModel#`) or the " +
      'local summarizer summarize.',
  },
} as const satisfies Record<string, SettingDeclaration>;

export type SettingKey = keyof typeof VSCODE_SETTINGS;
type Declaration<K extends SettingKey> = (typeof VSCODE_SETTINGS)[K];

/** The keys read by `to`. */
export type SettingKeyTo<To extends Declared['to']> = {
  [K in SettingKey]: Declaration<K>['to'] extends To ? K : never;
}[SettingKey];
export type GatewaySettingKey = SettingKeyTo<'gateway'>;
export type ClientSettingKey = SettingKeyTo<'client'>;

/** The value a declaration admits. */
export type DeclaredValue<D> = D extends { type: 'boolean' }
  ? boolean
  : D extends { type: 'number' | 'integer' }
    ? number
    : D extends { enum: readonly (infer E)[] }
      ? E
      : D extends { type: 'array' }
        ? string[]
        : never;
export type SettingValue<K extends SettingKey> = DeclaredValue<Declaration<K>>;

type Head<K extends string> = K extends `${infer H}.${string}` ? H : K;
type Nested<M extends Record<string, unknown>> = {
  [H in Head<keyof M & string>]?: H extends keyof M
    ? M[H]
    : Nested<{ [K in keyof M & string as K extends `${H}.${infer T}` ? T : never]: M[K] }>;
};

/** The gateway settings the user set in VS Code, shaped like `$GRIMOIRE_HOME/settings.json`. */
export type GatewaySettingsPatch = Nested<{ [K in GatewaySettingKey]: SettingValue<K> }>;

export function declaredKeys<To extends Declared['to']>(to: To): SettingKeyTo<To>[] {
  return (Object.keys(VSCODE_SETTINGS) as SettingKey[]).filter(
    (key): key is SettingKeyTo<To> => VSCODE_SETTINGS[key].to === to,
  );
}

export function declaration(key: SettingKey): SettingDeclaration {
  return VSCODE_SETTINGS[key];
}
