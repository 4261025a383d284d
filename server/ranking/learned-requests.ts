import type { Store } from '../store/store.js';
import type { LearnedText, PowerDocument } from '../resolve/types.js';
import { requestFollowed } from './recommendations.js';

/** Requests kept per power (the newest). */
export const LEARNED_PER_POWER = 50;
/** A learned request counts half after this many days, a quarter after twice as many. */
const HALF_LIFE_DAYS = 60;
const DAY_MS = 24 * 3600 * 1000;
/** How long after the answer a successful call still counts as following it (as the recommendation log). */
const FOLLOW_WINDOW_MS = 30 * 60 * 1000;

interface Row {
  id: string;
  at: number;
  power: string;
  tool: string;
  query: string;
}

/** What the log has learned: per power and per `power:tool`, the requests that led to a successful call. */
export interface LearnedDocuments {
  powers: Map<string, LearnedText[]>;
  tools: Map<string, LearnedText[]>;
}

/** A call as the activity log records it: only its outcome and where it went matter here. */
export interface FinishedCall {
  session: string;
  power: string;
  tool: string;
  status: string;
  at: number;
}

/**
 * Learning the user's words: when a call succeeds, the request the agent resolved before making
 * it (the session's recommendation that the call or its activation followed, or the request it
 * left unanswered before going its own way) joins the power's and the tool's search document. Failed,
 * rejected and suggested calls teach nothing. Each power keeps its newest LEARNED_PER_POWER requests, and
 * each counts less as it ages.
 */
export class LearnedRequests {
  private generation = 0;

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** Bumps whenever something was learned: a cheap key for whoever indexes the documents. */
  get version(): number {
    return this.generation;
  }

  /** Learns from a finished call; true when a request was learned. */
  async learnFromCall(call: FinishedCall): Promise<boolean> {
    if (call.status !== 'ok') return false;
    // The answer whose candidate the agent took; else the session's latest request, when the
    // agent left it unanswered (it took a power no answer offered, after a not_found say) or when
    // it offered this power beside the one the agent took first (a request that needs two powers).
    const followed = await requestFollowed(this.store, call, call.at - FOLLOW_WINDOW_MS, call.at);
    if (!followed || !followed.query.trim()) return false;
    const id = `${followed.id}:${call.power}:${call.tool}`;
    if (this.store.query<{ id: string }>('SELECT id FROM learned_requests WHERE id = ?', [id]).length > 0) return false;
    this.store.write({
      op: 'insert',
      table: 'learned_requests',
      row: { id, at: call.at, power: call.power, tool: call.tool, query: followed.query, session: call.session },
    });
    const beyondCap = this.store.query<{ id: string }>(
      'SELECT id FROM learned_requests WHERE power = ? ORDER BY at DESC LIMIT -1 OFFSET ?',
      [call.power, LEARNED_PER_POWER],
    );
    for (const row of beyondCap) this.store.write({ op: 'delete', table: 'learned_requests', where: { id: row.id } });
    this.generation += 1;
    return true;
  }

  /** Every power's and tool's learned requests with their weights now (in whole days of age, so documents stay stable within a day). */
  documents(): LearnedDocuments {
    const now = this.now();
    const rows = this.store.query<Row>('SELECT id, at, power, tool, query FROM learned_requests ORDER BY at');
    const powers = new Map<string, LearnedText[]>();
    const tools = new Map<string, LearnedText[]>();
    const add = (map: Map<string, LearnedText[]>, key: string, entry: LearnedText) => {
      const list = map.get(key) ?? [];
      const same = list.find((e) => e.text === entry.text);
      if (same) same.weight = Math.max(same.weight, entry.weight);
      else list.push(entry);
      map.set(key, list);
    };
    for (const row of rows) {
      const days = Math.floor(Math.max(0, now - row.at) / DAY_MS);
      const entry = { text: row.query, weight: 0.5 ** (days / HALF_LIFE_DAYS) };
      add(powers, row.power, entry);
      add(tools, `${row.power}:${row.tool}`, { ...entry });
    }
    return { powers, tools };
  }
}

/** The documents with what was learned for each power and tool attached. */
export function withLearned(documents: PowerDocument[], learned: LearnedDocuments): PowerDocument[] {
  return documents.map((doc) => {
    const own = learned.powers.get(doc.name);
    const tools = doc.tools.map((tool) => {
      const texts = learned.tools.get(`${doc.name}:${tool.name}`);
      return texts ? { ...tool, learned: texts } : tool;
    });
    return own ? { ...doc, learned: own, tools } : { ...doc, tools };
  });
}
