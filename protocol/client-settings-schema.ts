/**
 * What the extension sends the gateway process at start (`initializationOptions`) and with
 * `workspace/didChangeConfiguration`: zod schemas the server validates with, built from the setting
 * declarations (vscode-settings.ts); the client imports the inferred types.
 */
import { z } from 'zod';
import {
  declaration,
  declaredKeys,
  type ClientSettingKey,
  type GatewaySettingsPatch,
  type SettingDeclaration,
  type SettingValue,
} from './vscode-settings.js';

export type { GatewaySettingsPatch } from './vscode-settings.js';

/**
 * The type alone: bounds are the gateway's to check, key by key (server/rpc/client-settings.ts), so one bad
 * value does not refuse the others.
 */
function typeOf(setting: SettingDeclaration): z.ZodType {
  switch (setting.type) {
    case 'boolean':
      return z.boolean();
    case 'number':
    case 'integer':
      return z.number();
    case 'string':
      return z.enum(setting.enum);
    case 'array':
      return z.array(z.string());
  }
}

interface PatchTree {
  [key: string]: PatchTree | z.ZodType;
}

function patchObject(tree: PatchTree): z.ZodObject {
  return z.object(
    Object.fromEntries(
      Object.entries(tree).map(([key, node]) => [
        key,
        (node instanceof z.ZodType ? node : patchObject(node)).optional(),
      ]),
    ),
  );
}

function patchTree(): PatchTree {
  const tree: PatchTree = {};
  for (const key of declaredKeys('gateway')) {
    const path = key.split('.');
    let node = tree;
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as PatchTree;
    node[path.at(-1)!] = typeOf(declaration(key));
  }
  return tree;
}

/**
 * The gateway settings the user has set in VS Code, shaped like `~/.grimoire/settings.json`. A key left unset
 * keeps that file's value, or the default.
 */
export const gatewaySettingsPatchSchema = patchObject(patchTree()) as unknown as z.ZodType<GatewaySettingsPatch>;

type ClientFields = { [K in ClientSettingKey]: z.ZodDefault<z.ZodType<SettingValue<K>>> };

function clientFields(): ClientFields {
  return Object.fromEntries(
    declaredKeys('client').map((key) => {
      const setting = declaration(key);
      return [key, typeOf(setting).default(() => structuredClone(setting.default))];
    }),
  ) as unknown as ClientFields;
}

/** The `grimoire.*` VS Code settings, as the client reads them: its own fields (`to: 'client'`) and the gateway's patch. */
export const clientSettingsSchema = z.object({ ...clientFields(), gateway: gatewaySettingsPatchSchema.default({}) });

export const initializationSchema = z.object({
  settings: clientSettingsSchema.prefault({}),
  /** The first workspace folder: its `.grimoire/` spells and `.vscode/mcp.json` are read. */
  workspaceFolder: z.string().optional(),
  /** What the gateway process before this one (in the same window) had: taken over where possible. */
  restore: z
    .object({
      /** Serve MCP at this address with this token again (a new port only if this one is taken). The token is a secret. */
      endpoint: z.object({ url: z.string(), token: z.string().min(16) }).optional(),
      /**
       * The servers of the powers that were active (PowerInfo.serverId): a power of the same name that starts
       * another server is not activated.
       */
      activeServers: z.array(z.string()).optional(),
    })
    .optional(),
});

export type ClientSettings = z.infer<typeof clientSettingsSchema>;
export type InitializationOptions = z.infer<typeof initializationSchema>;
export type RestoreOptions = NonNullable<InitializationOptions['restore']>;
