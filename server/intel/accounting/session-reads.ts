/**
 * What each MCP session's agent read through the gateway, in tokens, by the per-request model of
 * request-model.ts: each call (a gateway tool's answer or a power's result) is one model request
 * carrying the tool list the session was last served; every answer of a gateway tool
 * (resolve_intent, activate_power, read_artifact ...) and every power's result as delivered (whole
 * or summarized), next to that result's raw size, which direct exposure would have read.
 * Counting runs off the call path, in batches (one tokenizer request per batch; batches are counted
 * in order, so a call is applied after the list served before it). Kept in memory for the last
 * MAX_SESSIONS sessions.
 */
import type { CallToolResult, Tool } from '../../util/mcp-types.js';
import { errorMessage, logger } from '../../log.js';
import { toolListText } from '../../../protocol/request-model.js';
import { CountBatcher } from '../tokens/count-batcher.js';
import type { Tokenizer } from '../tokens/tokenizer.js';

const log = logger('intel');
const MAX_SESSIONS = 50;
/** Tool lists whose counts are kept, by their text: a list served again is not counted again. */
const LISTS_KEPT = 8;
const LIST_KEPT_CHARS = 256 * 1024;

export interface SessionReads {
  session: string;
  /** Its client is VS Code, whose agent also gets the tools VS Code lists directly (its own mcp.json's servers) on each request. */
  vsCode: boolean;
  startedAt: number;
  lastAt: number;
  /** tools/list answers served. */
  toolsLists: number;
  /** The last list served, in tokens: what the next request carries. */
  currentListTokens: number;
  /** One per call (answers + results). */
  requests: number;
  /** The lists those requests carried. */
  requestListTokens: number;
  answers: number;
  answerTokens: number;
  results: number;
  deliveredTokens: number;
  rawTokens: number;
}

/** What the agent reads of a result: the text of its content (structured content repeats it). */
export function readableText(result: CallToolResult): string {
  const content = result.content ?? [];
  if (content.length === 1) return itemText(content[0]!);
  return content.map(itemText).join('\n');
}

function itemText(item: CallToolResult['content'][number]): string {
  return item.type === 'text' ? item.text : item.type === 'resource_link' ? JSON.stringify(item) : '';
}

type Apply = (row: SessionReads, counts: number[]) => void;

const listApplied: Apply = (row, [tokens]) => {
  row.toolsLists++;
  row.currentListTokens = tokens!;
};

/** The request that made a call carried the list the session had then. */
function requested(row: SessionReads): void {
  row.requests++;
  row.requestListTokens += row.currentListTokens;
}

const answerApplied: Apply = (row, [tokens]) => {
  requested(row);
  row.answers++;
  row.answerTokens += tokens!;
};

const resultApplied: Apply = (row, counts) => {
  requested(row);
  row.results++;
  row.rawTokens += counts[0]!;
  row.deliveredTokens += counts[counts.length - 1]!;
};

const failed = (error: unknown): void => log.warn(`session token accounting failed: ${errorMessage(error)}`);

export class SessionReadLedger {
  private readonly sessions = new Map<string, SessionReads>();
  private readonly counts: CountBatcher;
  private readonly listTokens = new Map<string, number>();

  constructor(
    tokenizer: Tokenizer,
    private readonly now: () => number,
  ) {
    this.counts = new CountBatcher(tokenizer);
  }

  /** `vsCode`: the session's client is VS Code. */
  listed(session: string, tools: Tool[], vsCode = false): void {
    const text = toolListText(tools);
    const apply: Apply = (row, counts) => {
      row.vsCode ||= vsCode;
      listApplied(row, counts);
    };
    const known = this.listTokens.get(text);
    if (known !== undefined) return this.count(session, [], (row) => apply(row, [known]));
    this.count(session, [text], (row, counts) => {
      this.keepList(text, counts[0]!);
      apply(row, counts);
    });
  }

  answered(session: string, answer: CallToolResult): void {
    this.count(session, [readableText(answer)], answerApplied);
  }

  /** `rawTokens`: the raw result's tokens when already known (an estimate for megabytes): only the delivered text is counted. */
  delivered(session: string, raw: CallToolResult | string, delivered: CallToolResult, rawTokens?: number): void {
    if (rawTokens !== undefined && raw !== delivered) {
      this.count(session, [readableText(delivered)], (row, counts) => resultApplied(row, [rawTokens, counts[0]!]));
      return;
    }
    const rawText = typeof raw === 'string' ? raw : readableText(raw);
    const deliveredText = raw === delivered ? rawText : readableText(delivered);
    const texts = rawText === deliveredText ? [rawText] : [rawText, deliveredText];
    this.count(session, texts, resultApplied);
  }

  /** Newest first. */
  async all(): Promise<SessionReads[]> {
    await this.counts.settled();
    return [...this.sessions.values()].sort((a, b) => b.lastAt - a.lastAt).map((row) => ({ ...row }));
  }

  private count(session: string, texts: string[], apply: Apply): void {
    const at = this.now();
    this.counts.add(texts, (counts) => apply(this.row(session, at), counts), failed);
  }

  private keepList(text: string, tokens: number): void {
    if (text.length > LIST_KEPT_CHARS) return;
    if (this.listTokens.size >= LISTS_KEPT) this.listTokens.delete(this.listTokens.keys().next().value!);
    this.listTokens.set(text, tokens);
  }

  private row(session: string, at: number): SessionReads {
    let row = this.sessions.get(session);
    if (!row) {
      if (this.sessions.size >= MAX_SESSIONS) {
        const oldest = [...this.sessions.values()].sort((a, b) => a.lastAt - b.lastAt)[0]!;
        this.sessions.delete(oldest.session);
      }
      row = {
        session,
        vsCode: false,
        startedAt: at,
        lastAt: at,
        toolsLists: 0,
        currentListTokens: 0,
        requests: 0,
        requestListTokens: 0,
        answers: 0,
        answerTokens: 0,
        results: 0,
        deliveredTokens: 0,
        rawTokens: 0,
      };
      this.sessions.set(session, row);
    }
    row.lastAt = Math.max(row.lastAt, at);
    return row;
  }
}
