/**
 * What the extension sends the gateway process at start (`initializationOptions`) and with
 * `workspace/didChangeConfiguration`: declared once, as zod schemas the server validates with;
 * the client imports the inferred types.
 */
import { z } from 'zod';

const optionalNumber = z.number().optional();
const optionalBoolean = z.boolean().optional();

/** The gateway settings the user has set in VS Code, shaped like `~/.grimoire/settings.json`. A key left unset keeps that file's value, or the default. */
export const gatewaySettingsPatchSchema = z.object({
  resolve: z.object({ activateThreshold: optionalNumber, multipleThreshold: optionalNumber, weakThreshold: optionalNumber }).optional(),
  upstream: z
    .object({
      callTimeoutMs: optionalNumber,
      idle: z.object({ mode: z.enum(['minutes', 'turns', 'never']).optional(), minutes: optionalNumber, turns: optionalNumber }).optional(),
    })
    .optional(),
  imports: z.object({ vscode: optionalBoolean, claudeDesktop: optionalBoolean, cursor: optionalBoolean, kiro: optionalBoolean }).optional(),
  discovery: z.object({ enabled: optionalBoolean }).optional(),
  intel: z.object({ readWholeTokens: optionalNumber, summarizers: z.object({ timeBudgetMs: optionalNumber, samplingInVsCode: optionalBoolean }).optional() }).optional(),
});

/** The `grimoire.*` VS Code settings, as the client reads them. */
export const clientSettingsSchema = z.object({
  /** Add the bundled demo powers (filesystem, memory, everything). */
  demoPowers: z.boolean().default(false),
  /** Spell folders read in addition to `~/.grimoire` and the workspace's `.grimoire/`. */
  spellFolders: z.array(z.string()).default([]),
  gateway: gatewaySettingsPatchSchema.default({}),
});

export const initializationSchema = z.object({
  settings: clientSettingsSchema.default({ demoPowers: false, spellFolders: [], gateway: {} }),
  /** The first workspace folder: its `.grimoire/` spells and `.vscode/mcp.json` are read. */
  workspaceFolder: z.string().optional(),
  /** What the gateway process before this one (in the same window) had: taken over where possible. */
  restore: z
    .object({
      /** Serve MCP at this address with this token again (a new port only if this one is taken). The token is a secret. */
      endpoint: z.object({ url: z.string(), token: z.string().min(16) }).optional(),
      /** The servers of the powers that were active (PowerInfo.serverId): a power of the same name that starts another server is not activated. */
      activeServers: z.array(z.string()).optional(),
    })
    .optional(),
});

export type GatewaySettingsPatch = z.infer<typeof gatewaySettingsPatchSchema>;
export type ClientSettings = z.infer<typeof clientSettingsSchema>;
export type InitializationOptions = z.infer<typeof initializationSchema>;
export type RestoreOptions = NonNullable<InitializationOptions['restore']>;
