import { z } from 'zod';
import { DEFAULT_FILE_LIMITS } from '../../shared/safe-read.js';

/**
 * The `limits` section of the settings: how much the gateway reads from a file or a client before
 * it refuses, so that one hostile file or request changes nothing but itself.
 */
export const limitsSettingsSchema = z
  .object({
    /** Spell files, imported configs, env files and settings.json larger than this are refused. */
    fileBytes: z.number().int().min(1024).default(DEFAULT_FILE_LIMITS.fileBytes),
    /** Reading one such file longer than this is given up. */
    fileReadTimeoutMs: z.number().int().positive().default(DEFAULT_FILE_LIMITS.fileReadTimeoutMs),
    /** One MCP message on stdio, or one HTTP request body, larger than this is answered with an error. */
    requestBytes: z
      .number()
      .int()
      .min(64 * 1024)
      .default(4 * 1024 * 1024),
    /** resolve_intent and retrieve_tools refuse a longer query. */
    queryChars: z.number().int().min(100).default(8000),
  })
  .prefault({});

export type LimitsSettings = z.infer<typeof limitsSettingsSchema>;
