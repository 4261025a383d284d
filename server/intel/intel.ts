/**
 * The intelligence layer's facade: summaries of large results (summarizer chain), artifacts,
 * the result cache, search and token accounting. The gateway owns one; its pipeline runs
 * `summarizeStage`, its gateway tools call `readArtifact` / `artifactContext` / `search`, the
 * JSON-RPC layer sets the VS Code language model with `setLanguageModel`, and stats and the
 * dashboard read `tokenReport()`. Nothing here ever fails a call: on any error the raw result goes on.
 */
import type { CallToolResult, Tool } from '../util/mcp-types.js';
import type { CallContext } from '../calls/pipeline.js';
import { errorMessage, logger } from '../log.js';
import type { EmbeddingCache } from '../text/embedding-cache.js';
import type { Store } from '../store/store.js';
import { TokenLedger, type CacheOutcome } from './accounting/token-ledger.js';
import { SessionReadLedger } from './accounting/session-reads.js';
import type { TokenReportInfo } from '../../protocol/records.js';
import { tokenReport, type ToolLists } from './accounting/token-report.js';
import { ArtifactStore, newArtifactId, type ArtifactFiles, type ArtifactOwner } from './artifacts/artifact-store.js';
import { argsHash, canonicalArgs, fingerprintOf, ResultCache } from './cache/result-cache.js';
import type { IntelSettings } from '../config/intel-settings.js';
import { WorkerSummarizer, type LocalSummarizer } from './local/summary-thread.js';
import { estimateTokens } from './local/estimate.js';
import { renderSummary } from './render.js';
import { decide, isReadRequest } from './summary-policy.js';
import { byteLength, hasBinary, rawTextOf } from './result-content.js';
import { searchArtifacts, searchTextOf, type SearchOutcome } from './search/artifact-search.js';
import { searchPassages, type PassageSearchOutcome } from './search/passage-search.js';
import { structuredTemplate } from './structured-content.js';
import { firstAvailable, runChain } from './summarizers/chain.js';
import type { LanguageModelFn } from './summarizers/language-model-summarizer.js';
import type { Attempt, Summary, SummaryBody } from './summary.js';
import { WorkerTokenizer, type Tokenizer } from './tokens/tokenizer.js';

export type { LanguageModelFn } from './summarizers/language-model-summarizer.js';

const log = logger('intel');
const PRUNE_EVERY = 200;
const ARGS_CHARS = 2_000;
/** A raw result longer than this (characters) is accounted by its estimated tokens, not counted. */
const EXACT_COUNT_CHARS = 1_000_000;

export interface IntelOptions {
  store: Store;
  settings: () => IntelSettings;
  /** Shared with the resolver; absent when semantic matching is off (search is then lexical). */
  embeddings?: EmbeddingCache;
  /** The gateway's tool list and every known power's tools, for the tools/list savings. */
  toolLists?: () => ToolLists;
  tokenizer?: Tokenizer;
  /** The local summarizer; by default in a worker thread. */
  localSummarizer?: LocalSummarizer;
  now?: () => number;
  files?: ArtifactFiles;
  /**
   * The team user a session belongs to (none over stdio, with the gateway's own token, or alone): whose
   * stored results it makes and sees.
   */
  userOf?: (sessionId: string) => string | undefined;
}

export class Intel {
  readonly artifacts: ArtifactStore;
  readonly cache: ResultCache;
  readonly ledger: TokenLedger;
  /** What each session's agent read through the gateway (tools lists, answers, results). */
  readonly reads: SessionReadLedger;
  readonly tokenizer: Tokenizer;
  private readonly localSummarizer: LocalSummarizer;
  private languageModel: LanguageModelFn | undefined;
  readonly now: () => number;
  /** Results stored by an earlier gateway process are never served in place of a call. */
  private readonly startedAt: number;
  private recorded = 0;

  constructor(private readonly options: IntelOptions) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.tokenizer = options.tokenizer ?? new WorkerTokenizer();
    this.localSummarizer = options.localSummarizer ?? new WorkerSummarizer();
    this.artifacts = new ArtifactStore(options.store, () => options.settings().artifacts, this.now, options.files);
    this.cache = new ResultCache(options.store, this.artifacts, options.embeddings);
    this.ledger = new TokenLedger(options.store, this.tokenizer);
    this.reads = new SessionReadLedger(this.tokenizer, this.now);
    this.sweep();
    this.pruneLedger(options.settings().statsRetentionDays);
  }

  /** Embeddings shared with the resolver; undefined when semantic matching is off. */
  get embeddings(): EmbeddingCache | undefined {
    return this.options.embeddings;
  }

  get settings(): IntelSettings {
    return this.options.settings();
  }

  /**
   * The VS Code language model, asked through the extension (set by the JSON-RPC layer); undefined
   * makes that summarizer "not available". The function rejects on refused consent or rate limits.
   */
  setLanguageModel(model: LanguageModelFn | undefined): void {
    this.languageModel = model;
  }

  hasLanguageModel(): boolean {
    return this.languageModel !== undefined;
  }

  /** Whose stored results a session makes and may read, search or reuse: its user's, '' for none. */
  ownerOf(sessionId: string): ArtifactOwner {
    return this.options.userOf?.(sessionId) ?? '';
  }

  /** Summaries, artifacts and the cache apply to this power's results. */
  enabledFor(power: string): boolean {
    const settings = this.settings;
    return settings.enabled && !settings.disabledPowers.includes(power);
  }

  /**
   * A cache hit for an identical earlier call, only for a tool whose spell opts in with
   * `cache: { ttlSeconds }` (then within that many seconds, in this process), or undefined (the call goes on).
   */
  async serveFromCache(context: CallContext, tool: Tool | undefined): Promise<CallToolResult | undefined> {
    const settings = this.settings;
    const ttlSeconds = context.cacheTtlSeconds;
    if (ttlSeconds === undefined || !this.enabledFor(context.power) || !settings.cache.enabled) return undefined;
    try {
      const owner = this.ownerOf(context.sessionId);
      const record = await this.cache.exact(
        context.power,
        context.tool,
        context.args,
        Math.max(this.startedAt - 1, this.now() - ttlSeconds * 1000),
        owner,
      );
      if (!record) return undefined;
      const summary: Summary = { ...record.summary, metadata: { ...record.summary.metadata, cached: true } };
      const rendered = renderSummary(summary, {
        original: {},
        outputSchema: tool?.outputSchema,
        structuredTemplate: record.structured,
        ttlMinutes: settings.artifacts.ttlMinutes,
        attempts: [{ summarizer: record.summary.metadata.summarizer, outcome: 'used', detail: `cached ${record.id}` }],
        cachedAgeMs: this.now() - record.at,
      });
      if (!rendered) return undefined;
      const entry = {
        at: this.now(),
        power: context.power,
        tool: context.tool,
        artifactId: record.id,
        summarizer: record.summarizer,
        cache: 'hit' as const,
        stored: true,
        rawBytes: record.rawBytes,
        delivered: textOf(rendered),
      };
      this.ledger.recordHit(entry, () => this.artifacts.readRaw(record.id, owner));
      this.afterRecord();
      return rendered;
    } catch (error) {
      log.warn(`cache lookup failed for ${context.power}:${context.tool}: ${errorMessage(error)}`);
      return undefined;
    }
  }

  /** Marks a non-read-only call: cached results of the power made before it are not reused. */
  noteWrite(power: string, at: number): void {
    if (!this.enabledFor(power)) return;
    this.cache
      .noteWrite(power, at)
      .catch((error) => log.warn(`could not note a write to '${power}': ${errorMessage(error)}`));
  }

  /**
   * The result the agent gets: the raw one when small, binary, an error, asked to read or off (then
   * without a wait: most results); a summary otherwise.
   */
  process(
    context: CallContext,
    result: CallToolResult,
    tool: Tool | undefined,
  ): CallToolResult | Promise<CallToolResult> {
    const large = this.largeText(context, result);
    if (!large) {
      this.reads.delivered(context.sessionId, result, result);
      return result;
    }
    return this.deliver(context, result, tool, large).then((delivered) => {
      this.reads.delivered(
        context.sessionId,
        result,
        delivered,
        large.raw.length > EXACT_COUNT_CHARS ? estimateTokens(large.raw) : undefined,
      );
      return delivered;
    });
  }

  /** The raw text of a result that may be summarized (by its size in bytes); undefined for one passed as is. */
  private largeText(context: CallContext, result: CallToolResult): LargeText | undefined {
    const settings = this.settings;
    if (!this.enabledFor(context.power) || result.isError || hasBinary(result)) return undefined;
    const raw = rawTextOf(result);
    const rawBytes = byteLength(raw);
    // A token is at least one byte: below the limit in bytes, it is below it in tokens.
    if (rawBytes < Math.min(settings.readWholeTokens, settings.summaryThresholdTokens)) return undefined;
    const readRequest = isReadRequest(context.tool, context.args);
    if (rawBytes < (readRequest ? settings.readWholeTokens : settings.summaryThresholdTokens)) return undefined;
    return { raw, rawBytes, readRequest };
  }

  private async deliver(
    context: CallContext,
    result: CallToolResult,
    tool: Tool | undefined,
    { raw, rawBytes, readRequest }: LargeText,
  ): Promise<CallToolResult> {
    const settings = this.settings;
    try {
      const tokens = await tokensNear(
        raw,
        readRequest ? settings.readWholeTokens : settings.summaryThresholdTokens,
        this.tokenizer,
      );
      if (!decide(settings, readRequest, tokens).summarize) return result;
      // Over EXACT_COUNT_CHARS the ledger keeps the estimate: counting megabytes exactly takes the token worker seconds.
      const rawTokens = raw.length > EXACT_COUNT_CHARS ? tokens : undefined;
      return (await this.summarize(context, result, tool, raw, rawBytes, rawTokens)) ?? result;
    } catch (error) {
      log.warn(`summarizing ${context.power}:${context.tool} failed: ${errorMessage(error)}; passing the raw result`);
      return result;
    }
  }

  private async summarize(
    context: CallContext,
    result: CallToolResult,
    tool: Tool | undefined,
    raw: string,
    rawBytes: number,
    rawTokens?: number,
  ): Promise<CallToolResult | undefined> {
    const settings = this.settings;
    const readOnly = context.annotations.readOnlyHint === true;
    const request = {
      power: context.power,
      tool: context.tool,
      args: context.args,
      raw,
      sample: context.sample,
      signal: context.cancellation?.signal,
    };
    const chainOptions = {
      settings: settings.summarizers,
      languageModel: this.languageModel,
      local: this.localSummarizer,
    };
    const fingerprint = fingerprintOf(context.power, context.tool, raw);

    let body: SummaryBody | undefined;
    let summarizer: Summary['metadata']['summarizer'] | undefined;
    let attempts: Attempt[] = [];
    let reusedFrom: string | undefined;
    const contentKey = this.cache.contentKey(context.power, context.tool, raw);
    const same = settings.cache.enabled ? this.cache.sameResult(contentKey) : undefined;
    if (same) {
      body = same.body;
      summarizer = same.summarizer;
      reusedFrom = same.artifactId;
      attempts = [
        {
          summarizer: same.summarizer,
          outcome: 'used',
          detail: `identical result, summary of ${same.artifactId} reused`,
        },
      ];
    }
    const first = body ? undefined : firstAvailable(request, chainOptions);
    if (settings.cache.enabled && first !== undefined && first !== 'local') {
      const similar = await this.cache
        .similar(context.power, context.tool, fingerprint, settings.cache.similarity, this.ownerOf(context.sessionId))
        .catch(() => undefined);
      if (similar) {
        const { identifiers } = await this.localSummarizer.summarize({
          text: raw,
          tool: context.tool,
          args: context.args,
        });
        const earlier = similar.record.summary;
        body = {
          keyFindings: earlier.keyFindings,
          actionableInsights: earlier.actionableInsights,
          ...(identifiers ? { identifiers } : {}),
        };
        summarizer = 'similar';
        reusedFrom = similar.record.id;
        attempts = [
          {
            summarizer: 'similar',
            outcome: 'used',
            detail: `${similar.record.id} (cosine ${similar.similarity.toFixed(3)})`,
          },
        ];
      }
    }
    if (!body) {
      const chain = await runChain(request, chainOptions);
      if (!chain.outcome) {
        log.info(`no summarizer produced a summary for ${context.power}:${context.tool}; passing the raw result`);
        return undefined;
      }
      ({ body, summarizer, attempts } = chain.outcome);
    }

    const id = newArtifactId();
    const summary: Summary = {
      keyFindings: body.keyFindings,
      actionableInsights: body.actionableInsights,
      ...(body.identifiers ? { identifiers: body.identifiers } : {}),
      metadata: {
        power: context.power,
        tool: context.tool,
        timestamp: new Date(context.startedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        artifactId: id,
        summarizer: summarizer!,
        rawBytes,
        ...(reusedFrom ? { reusedFrom } : {}),
      },
    };
    const template = tool?.outputSchema ? structuredTemplate(result.structuredContent) : undefined;
    const renderOptions = {
      original: result,
      outputSchema: tool?.outputSchema,
      structuredTemplate: template,
      ttlMinutes: settings.artifacts.ttlMinutes,
      attempts,
    };
    // Render once before storing: a summary the tool's output schema cannot carry is not worth storing.
    if (!renderSummary(summary, renderOptions)) {
      log.info(
        `${context.power}:${context.tool}: a summary does not fit the tool's output schema; passing the raw result`,
      );
      return undefined;
    }
    const canonical = canonicalArgs(context.args);
    const saved = await this.artifacts.save(
      {
        id,
        owner: this.ownerOf(context.sessionId),
        at: context.startedAt,
        power: context.power,
        tool: context.tool,
        argsHash: argsHash(context.args),
        args: canonical.slice(0, ARGS_CHARS),
        readOnly,
        summary,
        summarizer: summarizer!,
        rawBytes,
        rawChars: raw.length,
        fingerprint,
        searchText: searchTextOf(
          context.power,
          context.tool,
          canonical,
          summary.keyFindings,
          summary.actionableInsights,
        ),
        ...(template !== undefined ? { structured: template } : {}),
      },
      raw,
    );
    if (!saved.stored) delete summary.metadata.artifactId;
    else if (settings.cache.enabled)
      this.cache.rememberResult(contentKey, { body, summarizer: summarizer!, artifactId: id });
    const rendered = renderSummary(summary, {
      ...renderOptions,
      ...(saved.stored ? {} : { notStored: saved.reason }),
    })!;
    const cache: CacheOutcome =
      summarizer === 'similar' ? 'similar' : readOnly && settings.cache.enabled ? 'miss' : 'none';
    this.ledger.record({
      at: this.now(),
      power: context.power,
      tool: context.tool,
      artifactId: saved.stored ? id : undefined,
      summarizer: summarizer!,
      cache,
      stored: saved.stored,
      rawBytes,
      ...(rawTokens === undefined ? { raw } : { rawTokens }),
      delivered: textOf(rendered),
    });
    this.afterRecord();
    return rendered;
  }

  /** Searches the owner's live artifacts (semantic when the model is ready, lexical otherwise). */
  async search(query: string, limit: number, owner: ArtifactOwner): Promise<SearchOutcome> {
    return searchArtifacts(await this.artifacts.live(1_000, owner), query, limit, this.options.embeddings);
  }

  /** The passages of the owner's live artifacts that best answer a query, each with its artifact and range. */
  async searchPassages(query: string, limit: number, owner: ArtifactOwner): Promise<PassageSearchOutcome> {
    return searchPassages(this.artifacts, query, limit, owner, this.options.embeddings);
  }

  /** Token savings so far (waits for pending counts first). */
  async tokenReport(): Promise<TokenReportInfo> {
    await this.ledger.flush();
    const sessions = await this.reads.all();
    const settings = this.settings;
    const usage = await this.artifacts.usage();
    const lists = this.options.toolLists?.() ?? { gateway: [], powers: [] };
    return tokenReport(
      this.options.store,
      this.tokenizer,
      lists,
      {
        count: usage.count,
        bytes: usage.bytes,
        maxBytes: settings.artifacts.maxBytes,
        ttlMinutes: settings.artifacts.ttlMinutes,
      },
      sessions,
    );
  }

  /** Waits for background token accounting. */
  flush(): Promise<void> {
    return this.ledger.flush();
  }

  async close(): Promise<void> {
    await this.ledger.flush().catch(() => undefined);
    // Counts still batched go to the worker now, not to an in-thread encoder once it is closed.
    await this.reads.all().catch(() => undefined);
    await this.tokenizer.close();
    await this.localSummarizer.close();
  }

  /** Expired artifacts go (a query that can wait: it runs beside the calls); `swept` resolves when done. */
  private sweep(): void {
    this.swept = this.artifacts.sweep().then(
      () => undefined,
      (error) => log.warn(`artifact sweep failed: ${errorMessage(error)}`),
    );
  }

  /** The last sweep of expired artifacts (started at construction and every PRUNE_EVERY results). */
  swept: Promise<void> = Promise.resolve();

  /** The token counts past the retention go; a query that can wait, so it runs beside the calls. */
  private pruneLedger(retentionDays: number): void {
    this.ledger
      .prune(retentionDays, this.now())
      .catch((error) => log.warn(`token counts not pruned: ${errorMessage(error)}`));
  }

  private afterRecord(): void {
    this.recorded++;
    if (this.recorded % PRUNE_EVERY !== 0) return;
    this.pruneLedger(this.settings.statsRetentionDays);
    this.sweep();
  }
}

/** A result's raw text, large enough that it may be summarized. */
interface LargeText {
  raw: string;
  rawBytes: number;
  readRequest: boolean;
}

/**
 * The result's tokens where it matters: counted exactly when the estimate is within a factor of two
 * of the limit, the estimate otherwise (far from the limit it decides the same, without counting
 * a large text on the call path).
 */
async function tokensNear(raw: string, limit: number, tokenizer: Tokenizer): Promise<number> {
  const estimate = estimateTokens(raw);
  if (estimate > limit * 2 || estimate < limit / 2) return estimate;
  return (await tokenizer.count([raw]))[0]!;
}

function textOf(result: CallToolResult): string {
  return (result.content ?? []).map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}
