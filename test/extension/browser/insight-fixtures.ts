/** Payloads for the dashboard's browser tests, shaped as the gateway sends them. */
import type { ActivityInfo, HintsPayload, RecommendationStats, TokenReportInfo } from '../../../protocol/records.js';

const now = Date.now();

export function call(id: string, overrides: Partial<ActivityInfo> = {}): ActivityInfo {
  return {
    id,
    at: now - 60_000,
    session: 's1',
    power: 'memory',
    tool: 'read_graph',
    variant: 'read',
    operationType: 'read',
    decision: 'allowed',
    status: 'ok',
    latencyMs: 12,
    resultBytes: 300,
    audit: false,
    rating: 0,
    ...overrides,
  };
}

export const calls: ActivityInfo[] = [
  call('c3', {
    at: now - 10_000,
    tool: 'delete_entities',
    variant: 'destructive',
    operationType: 'destructive',
    audit: true,
    status: 'error',
    error: 'not found',
    latencyMs: 1500,
  }),
  call('c2', {
    at: now - 20_000,
    tool: 'create_entities',
    variant: 'direct',
    operationType: undefined,
    status: 'suggested',
    latencyMs: 1,
  }),
  call('c1', { at: now - 30_000, rating: 1 }),
];

export const stats: RecommendationStats = {
  all: { recommendations: 12, followed: 9, mrr: 0.833, precisionAt1: 0.778, precisionAt3: 1 },
  resolveIntent: { recommendations: 8, followed: 6, mrr: 0.917, precisionAt1: 0.833, precisionAt3: 1 },
  retrieveTools: { recommendations: 4, followed: 3, mrr: 0.667, precisionAt1: 0.667, precisionAt3: 1 },
  weights: { relevance: 0.4, success: 0.25, popularity: 0.1, performance: 0.15, rating: 0.1 },
  defaultWeights: { relevance: 0.35, success: 0.25, popularity: 0.15, performance: 0.15, rating: 0.1 },
  minSamples: 20,
  learning: true,
};

const node = (power: string, tool: string, calls = 0) => ({ id: `${power}:${tool}`, power, tool, calls });

export const hints: HintsPayload = {
  scope: 'active',
  powers: ['memory', 'filesystem'],
  nodes: [
    node('memory', 'search_nodes', 7),
    node('memory', 'create_entities', 5),
    node('memory', 'create_relations', 2),
    node('memory', 'add_observations', 1),
    node('memory', 'open_nodes'),
    node('memory', 'delete_entities'),
    node('memory', 'read_graph', 3),
    node('filesystem', 'list_directory', 4),
    node('filesystem', 'write_file', 2),
    node('filesystem', 'read_text_file', 6),
    node('filesystem', 'edit_file', 1),
    node('filesystem', 'get_file_info'),
  ],
  edges: [
    {
      from: 'memory:search_nodes',
      to: 'memory:create_entities',
      kind: 'prerequisite',
      source: 'declared',
      weight: 4,
      followRate: 0.75,
    },
    {
      from: 'memory:create_entities',
      to: 'memory:create_relations',
      kind: 'next_action',
      source: 'declared',
      weight: 2,
      followRate: 0.5,
    },
    {
      from: 'memory:create_entities',
      to: 'memory:add_observations',
      kind: 'next_action',
      source: 'declared',
      weight: 1,
      followRate: null,
    },
    {
      from: 'memory:open_nodes',
      to: 'memory:delete_entities',
      kind: 'prerequisite',
      source: 'declared',
      weight: 0,
      followRate: null,
    },
    {
      from: 'filesystem:list_directory',
      to: 'filesystem:write_file',
      kind: 'prerequisite',
      source: 'declared',
      weight: 2,
      followRate: 1,
    },
    {
      from: 'filesystem:read_text_file',
      to: 'filesystem:edit_file',
      kind: 'prerequisite',
      source: 'declared',
      weight: 1,
      followRate: null,
    },
    {
      from: 'filesystem:read_text_file',
      to: 'memory:create_entities',
      kind: 'next_action',
      source: 'learned',
      weight: 3,
      followRate: 0.67,
    },
  ],
  followRates: [],
  recent: [
    {
      at: now - 5_000,
      session: 's1',
      power: 'memory',
      tool: 'create_entities',
      kind: 'prerequisite',
      hint: 'memory:search_nodes',
      source: 'declared',
      suggested: ['memory:search_nodes'],
      outcome: 'followed',
    },
    {
      at: now - 2_000,
      session: 's1',
      power: 'memory',
      tool: 'create_entities',
      kind: 'next_action',
      hint: 'memory:create_relations,memory:add_observations',
      source: 'declared',
      suggested: ['memory:create_relations', 'memory:add_observations'],
      outcome: null,
    },
  ],
};

const DAY = 24 * 3600 * 1000;
const day = (ago: number) => new Date(now - ago * DAY).toISOString().slice(0, 10);
const totals = (results: number, raw: number, delivered: number) => ({
  results,
  rawTokens: raw,
  deliveredTokens: delivered,
  savedTokens: raw - delivered,
  reduction: Math.round((1 - delivered / raw) * 1000) / 1000,
});

export const tokens: TokenReportInfo = {
  tokenizer: 'o200k_base',
  summarized: totals(17, 182_000, 21_000),
  byDay: [
    { day: day(9), ...totals(3, 30_000, 4_000) },
    { day: day(6), ...totals(2, 12_000, 2_000) },
    { day: day(2), ...totals(5, 60_000, 7_000) },
    { day: day(0), ...totals(7, 80_000, 8_000) },
  ],
  byPower: [
    { power: 'filesystem', ...totals(11, 150_000, 15_000) },
    { power: 'everything', ...totals(6, 32_000, 6_000) },
  ],
  bySummarizer: { local: 15, sampling: 2 },
  cache: { hits: 4, misses: 9, similar: 1, hitRate: 0.308 },
  notStored: 0,
  artifacts: { count: 14, bytes: 812_000, maxBytes: 268_435_456, ttlMinutes: 180 },
  toolsList: {
    gateway: { tools: 11, tokens: 2_300 },
    configured: { powers: 3, unlisted: 0, tools: 36, tokens: 9_800 },
    alsoDirect: { tools: 9, tokens: 2_100 },
    savedTokens: 5_400,
    reduction: 0.551,
    listedTwice: [{ power: 'notes', file: '/w/.vscode/mcp.json', tools: 9, tokens: 2_100 }],
  },
  sessions: {
    rows: [
      {
        session: 'a1b2c3d4-session',
        startedAt: now - 60_000,
        lastAt: now - 5_000,
        gateway: {
          requests: 5,
          toolsLists: 2,
          toolsListTokens: 11_500,
          alsoDirectTokens: 10_500,
          answers: 2,
          answerTokens: 700,
          results: 3,
          resultTokens: 1_900,
          tokens: 24_600,
        },
        direct: { requests: 3, toolsListTokens: 29_400, resultTokens: 24_000, tokens: 53_400 },
        savedTokens: 28_800,
      },
    ],
    totals: {
      gatewayTokens: 24_600,
      directTokens: 53_400,
      savedTokens: 28_800,
      reduction: 0.539,
      extraRequests: 2,
      alsoDirectTokens: 10_500,
    },
  },
};
