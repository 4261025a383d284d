/**
 * The activity log's age limit (`activity.retentionDays`) for the other records that grow with use:
 * the gateway's events, the hints it showed and the recommendations it made. One range delete per
 * table on its indexed `at`, at each gateway start (the activity log's own retention runs then too);
 * on PostgreSQL they are the team's, so every replica's start prunes them.
 */
import type { Store, WriteOp } from '../store/store.js';

const DAY_MS = 24 * 3600 * 1000;
export const AGED_TABLES = ['events', 'hint_events', 'recommendations'] as const;

export function pruneAgedHistory(store: Store, maxAgeDays: number, now = Date.now()): void {
  const before = now - maxAgeDays * DAY_MS;
  store.writeMany(AGED_TABLES.map((table): WriteOp => ({ op: 'deleteBefore', table, before: { at: before } })));
}
