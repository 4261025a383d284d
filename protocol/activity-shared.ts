/**
 * What the client's Activity view and the dashboard webview share about calls: a protocol filter
 * applied to calls pushed live (`activityRecorded`) the way the server's query applies it, the list
 * kept up to date, ratings toggled, and a call's intent and latency in words. Imports only protocol types.
 */
import type { ActivityFilterInfo, ActivityInfo, ActivityRating } from './records.js';

/** How many calls a live list keeps by default. */
export const ACTIVITY_LIMIT = 100;

export function isFiltered(filter: ActivityFilterInfo): boolean {
  return Boolean(
    filter.intentType ||
    filter.status ||
    filter.power ||
    filter.tool ||
    filter.since !== undefined ||
    filter.until !== undefined,
  );
}

/** The filter in words ('' when none). */
export function filterText(filter: ActivityFilterInfo): string {
  return [
    ...(filter.intentType ? [`intent: ${filter.intentType}`] : []),
    ...(filter.status ? [`status: ${filter.status}`] : []),
    ...(filter.power ? [`power: ${filter.power}`] : []),
    ...(filter.tool ? [`tool: ${filter.tool}`] : []),
  ].join(' · ');
}

export function matchesFilter(entry: ActivityInfo, filter: ActivityFilterInfo): boolean {
  if (filter.intentType && entry.operationType !== filter.intentType) return false;
  if (filter.status && entry.status !== filter.status) return false;
  if (filter.power && entry.power !== filter.power) return false;
  if (filter.tool && entry.tool !== filter.tool) return false;
  if (filter.since !== undefined && entry.at < filter.since) return false;
  if (filter.until !== undefined && entry.at >= filter.until) return false;
  return true;
}

/** The list with a just-recorded call in its place (newest first), once, when the filter admits it. */
export function withRecorded(
  entries: ActivityInfo[],
  entry: ActivityInfo,
  filter: ActivityFilterInfo,
  limit = filter.limit ?? ACTIVITY_LIMIT,
): ActivityInfo[] {
  if (!matchesFilter(entry, filter) || entries.some((e) => e.id === entry.id)) return entries;
  return [entry, ...entries].sort((a, b) => b.at - a.at).slice(0, limit);
}

export function withRating(entries: ActivityInfo[], id: string, rating: ActivityRating): ActivityInfo[] {
  return entries.map((entry) => (entry.id === id ? { ...entry, rating } : entry));
}

/** The rating a thumb click gives: the same thumb again takes the rating back. */
export function toggledRating(current: ActivityRating, thumb: 1 | -1): ActivityRating {
  return current === thumb ? 0 : thumb;
}

/** The variant called and, for intent-declared calls, the declared operation when it differs. */
export function intentText(entry: Pick<ActivityInfo, 'variant' | 'operationType'>): string {
  if (entry.variant === 'direct') return 'direct';
  return entry.operationType && entry.operationType !== entry.variant
    ? `${entry.variant} (declared ${entry.operationType})`
    : entry.variant;
}

export function latencyText(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}
