import { z } from 'zod';
import { declaredFields } from '../config/declared-fields.js';

/** The summarizers, by the names settings use. */
export const SUMMARIZER_NAMES = ['sampling', 'vscodeLm', 'local'] as const;
export type SummarizerName = (typeof SUMMARIZER_NAMES)[number];

const modelSummarizer = (timeoutMs: number) =>
  z
    .object({
      enabled: z.boolean().default(true),
      /** A reply later than this falls back to the next summarizer. */
      timeoutMs: z.number().int().positive().default(timeoutMs),
    })
    .prefault({});

/**
 * The `intel` section of the settings (`grimoire.intel.*`): summaries of large results, their
 * artifacts, the result cache and search.
 */
export const intelSettingsSchema = z
  .object({
    /** Off: every result reaches the agent unchanged and nothing is stored. */
    enabled: z.boolean().default(true),
    /** Bulk results (listings, logs, tables, JSON collections) of at least this many tokens (o200k_base, about 2 KB) are summarized. */
    summaryThresholdTokens: z.number().int().min(64).default(512),
    /** readWholeTokens: text the agent asked to read (a file, a page) comes back whole up to this many tokens; longer, it is summarized. */
    ...declaredFields('intel'),
    summarizers: z
      .object({
        /**
         * timeBudgetMs: how long a model summarizer may take, in all, before the local summarizer
         * answers; samplingInVsCode: MCP sampling under VS Code (where it shows a model picker and a
         * consent dialog per call); elsewhere it is used when the client offers it.
         */
        ...declaredFields('intel.summarizers'),
        /** Tried in this order; a failing or unavailable one falls back to the next, the last to the raw result. */
        order: z.array(z.enum(SUMMARIZER_NAMES)).min(1).default(['vscodeLm', 'sampling', 'local']),
        /** The MCP client's own model (sampling/createMessage), when the client declares sampling. */
        sampling: modelSummarizer(20_000),
        /** VS Code's Language Model API, asked through the extension. */
        vscodeLm: modelSummarizer(20_000),
        /** The offline, deterministic summarizer. */
        local: z.object({ enabled: z.boolean().default(true) }).prefault({}),
      })
      .prefault({}),
    /** Powers whose results are never summarized, stored or cached. */
    disabledPowers: z.array(z.string()).default([]),
    artifacts: z
      .object({
        /** How long a full result is kept (and a summary reused) after the call. */
        ttlMinutes: z.number().positive().default(180),
        /** Total size of stored results; the oldest are evicted first. */
        maxBytes: z
          .number()
          .int()
          .min(1024)
          .default(256 * 1024 * 1024),
      })
      .prefault({}),
    cache: z
      .object({
        /** Reuse the summary of an identical earlier call to a read-only tool instead of calling it again. */
        enabled: z.boolean().default(true),
        /** Cosine above which an earlier result's summary is reused instead of asking a model again. */
        similarity: z.number().min(0).max(1).default(0.9),
      })
      .prefault({}),
    /** Token accounting rows older than this are dropped. */
    statsRetentionDays: z.number().positive().default(90),
  })
  .prefault({});

export type IntelSettings = z.infer<typeof intelSettingsSchema>;
