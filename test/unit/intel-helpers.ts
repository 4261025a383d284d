/** Shared set-up for the intel unit tests: a real store in a temp folder, the in-thread tokenizer, a settable clock. */
import type { CallToolResult, Tool } from '../../server/util/mcp-types.js';
import type { CallContext } from '../../server/calls/pipeline.js';
import { Intel, type IntelOptions } from '../../server/intel/intel.js';
import { intelSettingsSchema, type IntelSettings } from '../../server/config/intel-settings.js';
import { summarizeStage } from '../../server/intel/summarize-stage.js';
import { InlineTokenizer } from '../../server/intel/tokens/tokenizer.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

export interface Harness {
  intel: Intel;
  store: Store;
  clock: { now: number };
  settings: IntelSettings;
  dataDir: string;
  close(): Promise<void>;
}

export async function harness(
  settings: Record<string, unknown> = {},
  extra: Partial<IntelOptions> = {},
): Promise<Harness> {
  const temp = tempDir('grimoire-intel-');
  const store = await Store.open({ dataDir: temp.dir, fsync: false });
  const clock = { now: Date.UTC(2026, 0, 15, 12, 0, 0) };
  const h: Harness = {
    store,
    clock,
    dataDir: temp.dir,
    settings: intelSettingsSchema.parse(settings),
    intel: undefined as unknown as Intel,
    async close() {
      await h.intel.close();
      store.close();
      temp.cleanup();
    },
  };
  h.intel = new Intel({
    store,
    settings: () => h.settings,
    tokenizer: new InlineTokenizer(),
    now: () => clock.now,
    ...extra,
  });
  return h;
}

export const READ_ONLY = { readOnlyHint: true, source: 'server' as const };
export const WRITES = { readOnlyHint: false, destructiveHint: false, source: 'server' as const };

export function context(h: Harness, overrides: Partial<CallContext> = {}): CallContext {
  // A listing: bulk output, summarized from the token threshold (a read of one file would come back whole up to its budget).
  return {
    power: 'files',
    tool: 'list',
    calledAs: 'files__list',
    args: { path: '/a' },
    sessionId: 's1',
    startedAt: h.clock.now,
    variant: 'direct',
    annotations: READ_ONLY,
    ...overrides,
  };
}

export const textResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] });

/** Runs the summarize stage once; `upstream.calls` counts how often the server was reached. */
export function stageRunner(h: Harness, tool?: Tool) {
  const stage = summarizeStage(h.intel, () => tool);
  const upstream = { calls: 0 };
  const run = (ctx: CallContext, result: CallToolResult) =>
    stage(ctx, async () => {
      upstream.calls++;
      return result;
    });
  return { run, upstream };
}

/** The agent-visible summary JSON of a summarized result. */
export function summaryOf(result: CallToolResult): Record<string, any> {
  const first = result.content?.[0];
  if (!first || first.type !== 'text') throw new Error('no text content');
  return JSON.parse(first.text);
}

export function metaOf(result: CallToolResult): Record<string, any> {
  return (result._meta?.['grimoire/summary'] ?? {}) as Record<string, any>;
}

export function allText(result: CallToolResult): string {
  return (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** Prose of about `bytes` bytes, with ids in it. */
export function bigText(bytes: number, seed = 'alpha'): string {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < bytes; i++)
    lines.push(
      `Record ${seed}-${i} describes item ${i} of the ${seed} inventory, stored at /srv/${seed}/item-${i}.json for later review.`,
    );
  return lines.join('\n').slice(0, bytes);
}
