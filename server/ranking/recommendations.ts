import { randomUUID } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { UsageFactors } from './usage-group.js';
import { Lru } from '../util/lru.js';

/** What was recommended, as stored: enough to re-rank it later under other weights. */
export interface RecommendedCandidate {
  name: string;
  relevance: number;
  factors: UsageFactors;
}

export interface Recommendation {
  id: string;
  at: number;
  session: string;
  source: 'resolve_intent' | 'retrieve_tools';
  query: string;
  candidates: RecommendedCandidate[];
  used?: string;
  usedRank?: number;
}

/** What the metrics are computed from: counts, and over the followed recommendations the sums of 1/(rank+1), rank 0 and rank < 3. */
export interface HistorySums {
  recommendations: number;
  followed: number;
  reciprocalRanks: number;
  atRank1: number;
  withinRank3: number;
}

interface Row {
  id: string;
  at: number;
  session: string;
  source: string;
  query: string;
  candidates: string;
  used: string | null;
  used_rank: number | null;
  used_at: number | null;
}

/** How long after a recommendation the agent's use of a candidate still counts as following it. */
const FOLLOW_WINDOW_MS = 30 * 60 * 1000;
const KEPT = 5;
/** Sessions known to have a recommendation; past this many, the least recently recommended to is forgotten (its calls credit nothing). */
const MAX_SESSIONS = 10_000;

/**
 * Which recommendation the agent actually used: every resolve_intent / retrieve_tools answer is
 * kept with its top candidates; the session's next activation of, or call to, one of them marks
 * it used at that rank.
 */
export class RecommendationLog {
  /**
   * Sessions this log recorded a recommendation for. Session ids are made by the process that
   * serves the session, so a session missing here has nothing to credit: its calls skip the query.
   */
  private readonly sessions = new Lru<string, true>(MAX_SESSIONS);
  /** Per session, its credits asked for so far, in order (each reads the log, then writes): learning from its calls waits for them. */
  private readonly marking = new Map<string, Promise<unknown>>();

  constructor(private readonly store: Store) {}

  record(entry: Omit<Recommendation, 'id' | 'at' | 'used' | 'usedRank'>, at = Date.now()): string {
    const id = randomUUID();
    this.sessions.set(entry.session, true);
    this.store.write({
      op: 'insert',
      table: 'recommendations',
      row: {
        id,
        at,
        session: entry.session,
        source: entry.source,
        query: entry.query,
        candidates: JSON.stringify(entry.candidates.slice(0, KEPT)),
        used: null,
        used_rank: null,
        used_at: null,
      },
    });
    return id;
  }

  /** Whether this log recorded a recommendation for the session (else none of its calls follows one). */
  knows(session: string): boolean {
    return this.sessions.has(session);
  }

  /** The agent used `name` (a power, or `power:tool`) in this session: credit the latest open recommendation naming it. */
  markUsed(session: string, name: string, now = Date.now()): Promise<Recommendation | undefined> {
    const marked = (this.marking.get(session) ?? Promise.resolve()).then(() => this.credit(session, name, now));
    const settled = marked.catch(() => undefined);
    this.marking.set(session, settled);
    void settled.then(() => {
      if (this.marking.get(session) === settled) this.marking.delete(session);
    });
    return marked;
  }

  /** Resolves once every credit asked for so far in the session is written (or failed). */
  marked(session: string): Promise<void> {
    return (this.marking.get(session) ?? Promise.resolve()).then(() => undefined);
  }

  private async credit(session: string, name: string, now: number): Promise<Recommendation | undefined> {
    if (!this.knows(session)) return undefined;
    const open = await this.store.read<Row>(
      'SELECT * FROM recommendations WHERE session = ? AND used IS NULL AND at >= ? ORDER BY at DESC LIMIT 20',
      [session, now - FOLLOW_WINDOW_MS],
    );
    for (const row of open) {
      const candidates = JSON.parse(row.candidates) as RecommendedCandidate[];
      const rank = candidates.findIndex((c) => c.name === name || name.startsWith(`${c.name}:`));
      if (rank < 0) continue;
      this.store.write({
        op: 'upsert',
        table: 'recommendations',
        row: { ...row, used: name, used_rank: rank, used_at: now },
      });
      return fromRow({ ...row, used: name, used_rank: rank });
    }
    return undefined;
  }

  /**
   * Per source, what MRR and precision@k are computed from (metricsBySource), summed where the log is kept
   * (it grows with every answer).
   */
  async sums(): Promise<Partial<Record<Recommendation['source'], HistorySums>>> {
    const rows = await this.store.read<{ source: Recommendation['source'] } & HistorySums>(
      `SELECT source, COUNT(*) AS recommendations, COUNT(used_rank) AS followed,
              COALESCE(SUM(1.0 / (used_rank + 1)), 0) AS "reciprocalRanks",
              SUM(CASE WHEN used_rank = 0 THEN 1 ELSE 0 END) AS "atRank1",
              SUM(CASE WHEN used_rank < 3 THEN 1 ELSE 0 END) AS "withinRank3"
       FROM recommendations GROUP BY source`,
    );
    return Object.fromEntries(rows.map(({ source, ...sums }) => [source, sums]));
  }

  /** The recommendations the agent followed, oldest first: what tuning replays. */
  async followed(): Promise<Recommendation[]> {
    return (await this.store.read<Row>('SELECT * FROM recommendations WHERE used IS NOT NULL ORDER BY at')).map(
      fromRow,
    );
  }
}

/**
 * The request a finished call answers, for learning: the session's latest answer whose candidate it
 * used (the power or the tool) since `since`; else the session's latest resolve_intent request in
 * [since, at], when no call used it or when it offered the call's power beside the one used first.
 * Undefined when there is none.
 */
export async function requestFollowed(
  store: Pick<Store, 'read'>,
  call: { session: string; power: string; tool: string },
  since: number,
  at: number,
): Promise<{ id: string; query: string } | undefined> {
  const [used] = await store.read<{ id: string; query: string }>(
    'SELECT id, query FROM recommendations WHERE session = ? AND (used = ? OR used = ?) AND used_at >= ? ORDER BY used_at DESC LIMIT 1',
    [call.session, call.power, `${call.power}:${call.tool}`, since],
  );
  if (used) return used;
  const [latest] = await store.read<Pick<Row, 'id' | 'query' | 'used' | 'candidates'>>(
    'SELECT id, query, used, candidates FROM recommendations WHERE session = ? AND source = ' +
      "'resolve_intent' AND at >= ? AND at <= ? ORDER BY at DESC LIMIT 1",
    [call.session, since, at],
  );
  if (!latest) return undefined;
  if (latest.used === null || offeredNames(latest.candidates).includes(call.power))
    return { id: latest.id, query: latest.query };
  return undefined;
}

function offeredNames(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed)
      ? parsed.filter((c): c is { name: string } => typeof c?.name === 'string').map((c) => c.name)
      : [];
  } catch {
    return [];
  }
}

function fromRow(row: Row): Recommendation {
  return {
    id: row.id,
    at: row.at,
    session: row.session,
    source: row.source as Recommendation['source'],
    query: row.query,
    candidates: JSON.parse(row.candidates) as RecommendedCandidate[],
    used: row.used ?? undefined,
    usedRank: row.used_rank ?? undefined,
  };
}
