import { z } from 'zod';
import { intelSettingsSchema } from './intel-settings.js';
import { readTextFile } from '../../shared/safe-read.js';
import { limitsSettingsSchema } from './limits-settings.js';
import { FITTED_ACTIVATE_THRESHOLD } from '../resolve/default-calibration.js';
import { declaredFields } from './declared-fields.js';

/**
 * The SDK's stdio default (STDIO_DEFAULT_MAX_BUFFER_SIZE, 10 MB; test/unit/pipeline-and-settings.test.ts
 * keeps the two equal), written here because importing it loads the SDK's protocol schemas: about
 * 35 ms of every CLI command.
 */
export const DEFAULT_MAX_RESULT_MB = 10;

/**
 * Gateway settings, read from `$GRIMOIRE_HOME/settings.json` and command-line flags. The ones users
 * also set in VS Code (`grimoire.*`) are declared in protocol/vscode-settings.ts and spread here by
 * section (`declaredFields`); the others are declared here.
 */
export const settingsSchema = z.object({
  resolve: z
    .object({
      ...declaredFields('resolve', { activateThreshold: FITTED_ACTIVATE_THRESHOLD }),
      semantic: z
        .object({
          enabled: z.boolean().default(true),
          /** A Hugging Face model id, or a folder holding config.json, tokenizer.json and onnx/model.onnx. */
          model: z.string().min(1).default('Xenova/all-MiniLM-L6-v2'),
          /** False keeps the gateway offline: only models already cached or on disk are used. */
          allowRemoteModels: z.boolean().default(true),
        })
        .prefault({}),
    })
    .prefault({}),
  upstream: z
    .object({
      ...declaredFields('upstream'),
      startTimeoutMs: z.number().int().positive().default(30_000),
      /** The largest message a stdio power may send, in MB; a larger answer fails that call only. */
      maxResultMB: z.number().positive().max(1024).default(DEFAULT_MAX_RESULT_MB),
      idle: z.object(declaredFields('upstream.idle')).prefault({}),
      restart: z
        .object({
          maxAttempts: z.number().int().min(0).default(5),
          baseDelayMs: z.number().int().positive().default(1000),
        })
        .prefault({}),
    })
    .prefault({}),
  imports: z.object(declaredFields('imports')).prefault({}),
  discovery: z
    .object({
      ...declaredFields('discovery'),
      /** How many servers are listed at once on a fresh catalog. */
      concurrency: z.number().int().min(1).max(16).default(4),
      /** How long a resolve waits for servers still being listed before it ranks a partial catalog (ms). */
      waitMs: z.number().int().min(0).max(30000).default(3000),
    })
    .prefault({}),
  powers: z
    .object({
      /** Powers never offered or activated. */
      disabled: z.array(z.string()).default([]),
    })
    .prefault({}),
  tools: z
    .object({
      /** Tools never offered or exposed, as `power:tool`. */
      blocked: z.array(z.string()).default([]),
    })
    .prefault({}),
  intentDeclaration: z
    .object({
      /** Reject (rather than warn about) calls whose variant the tool's annotations contradict. */
      strictServerValidation: z.boolean().default(true),
      /** Guess annotations from a tool's name when its server gives none. */
      inferAnnotations: z.boolean().default(true),
    })
    .prefault({}),
  activity: z
    .object({
      retentionDays: z.number().positive().default(30),
      maxEntries: z.number().int().positive().default(10_000),
    })
    .prefault({}),
  retrieve: z
    .object({
      /** retrieve_tools never answers with more than this many bytes of JSON. */
      maxResultBytes: z.number().int().min(2000).default(12_000),
    })
    .prefault({}),
  exposure: z
    .object({
      /** 'direct': an active power's tools join the agent's tool list; 'call-tools': they are reached through call_tool_*. */
      mode: z.enum(['direct', 'call-tools']).default('direct'),
      /** At most this many power tools in the list (VS Code allows 128 tools per request in all). */
      maxTools: z.number().int().min(1).default(100),
    })
    .prefault({}),
  hints: z
    .object({
      /** Offer next actions learned from the activity log when a tool declares none. */
      learn: z.boolean().default(true),
      /** A learned transition is offered only after this many observations. */
      minSupport: z.number().int().min(1).default(3),
    })
    .prefault({}),
  ranking: z
    .object({
      /** Re-rank close candidates by success, popularity, latency and rating from the activity log. */
      learn: z.boolean().default(true),
    })
    .prefault({}),
  sessions: z
    .object({
      /** An MCP session over HTTP that sends nothing for this long is closed and its state freed. */
      idleMinutes: z.number().positive().default(30),
      /**
       * At most this many MCP sessions over HTTP at once, all clients together; when full, the client
       * holding the most gives up its least recently used session to one holding fewer, else a new
       * one is refused with a clear error.
       */
      maxConcurrent: z.number().int().min(1).default(64),
      /**
       * At most this many HTTP sessions per client (a bearer token: the owner's, or a team user's); past it,
       * its least recently used one is closed.
       */
      maxPerClient: z.number().int().min(1).default(16),
      /**
       * A 2026-07-28 client's tool call still running after this long is answered with a task
       * (the `io.modelcontextprotocol/tasks` extension, when the request declares it) and goes on; 0: never.
       */
      taskAfterMs: z.number().int().min(0).default(10_000),
    })
    .prefault({}),
  trust: z
    .object({
      /**
       * A tool that appears in a power already seen: 'quarantine' (held for review) or 'allow'. Unset:
       * quarantine for powers from the workspace, allow for the user's own folders and the demos.
       */
      newTools: z.enum(['quarantine', 'allow']).optional(),
    })
    .prefault({}),
  /** Summaries of large results, artifacts, the result cache and search (server/intel). */
  intel: intelSettingsSchema,
  /** Sizes and times the gateway accepts from files and clients. */
  limits: limitsSettingsSchema,
});

export type Settings = z.infer<typeof settingsSchema>;

export function defaultSettings(): Settings {
  return settingsSchema.parse({});
}

export interface SettingsResult {
  settings: Settings;
  problems: string[];
}

/** Reads a settings file; a missing file gives the defaults, a bad one gives the defaults and says why. */
export function loadSettingsFile(file: string): SettingsResult {
  const read = readTextFile(file);
  if (!read.ok) {
    if (read.reason === 'missing') return { settings: defaultSettings(), problems: [] };
    return {
      settings: defaultSettings(),
      problems: [`${file}: ${read.message}; using default settings. Fix: ${read.fix}.`],
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch (error) {
    return {
      settings: defaultSettings(),
      problems: [`${file}: not valid JSON (${(error as Error).message}); using default settings. Fix the JSON syntax.`],
    };
  }
  const parsed = settingsSchema.safeParse(json);
  if (parsed.success) return { settings: parsed.data, problems: [] };
  const problems = parsed.error.issues.map(
    (issue) =>
      `${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}; using default settings until it is fixed.`,
  );
  return { settings: defaultSettings(), problems };
}

/** Deep-merges plain overrides (from command-line flags) onto settings and validates the result. */
export function withOverrides(settings: Settings, overrides: Record<string, unknown>): Settings {
  return settingsSchema.parse(mergeDeep(settings, overrides));
}

function mergeDeep(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch === undefined ? base : patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) out[key] = mergeDeep(base[key], value);
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
