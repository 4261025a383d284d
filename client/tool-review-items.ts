/** What the tool review shows (no `vscode` import): the Powers tree's review item and the two versions for the diff editor. */
import type { ToolReviewInfo, ToolVersionInfo } from '../server/rpc/protocol.js';
import type { ItemModel } from './tree-items.js';

export const REVIEW_SCHEME = 'grimoire-review';

/** The Powers tree's "Review changes" item, shown first while tools await review. */
export function reviewItem(reviews: readonly ToolReviewInfo[]): ItemModel {
  const pending = reviews.filter((r) => r.status === 'pending');
  const suspicious = reviews.filter((r) => r.suspicious.length > 0).length;
  return {
    id: 'review:changes',
    label: `Review changes (${pending.length})`,
    description: `${reviews.map((r) => `${r.power}:${r.tool}`).join(', ')}${suspicious ? ` · ${suspicious} suspicious` : ''}`,
    tooltip: reviews.map((r) => `${r.power}:${r.tool} (${r.kind}${r.status === 'rejected' ? ', kept blocked' : ''}): ${r.changes.join('; ') || 'new tool'}`).join('\n'),
    contextValue: 'grimoire.toolReview',
    icon: { id: suspicious ? 'shield' : 'diff', color: suspicious ? 'errorForeground' : 'problemsWarningIcon.foreground' },
    collapsible: false,
  };
}

/** The text the diff editor compares: one side of a review. */
export function versionText(review: ToolReviewInfo, side: 'old' | 'new'): string {
  const version: ToolVersionInfo | undefined = side === 'old' ? review.old : review.new;
  if (!version) return `(${review.power}:${review.tool} is new: there is no approved version)\n`;
  return [
    `# ${review.power}:${review.tool} (${side === 'old' ? 'approved' : 'offered now'})`,
    '',
    '## description',
    version.description ?? '(none)',
    '',
    '## inputSchema',
    JSON.stringify(version.inputSchema, null, 2),
    '',
    '## annotations',
    JSON.stringify(version.annotations ?? {}, null, 2),
    '',
  ].join('\n');
}

/** The path of one side in the grimoire-review: scheme. */
export function versionPath(review: Pick<ToolReviewInfo, 'power' | 'tool'>, side: 'old' | 'new'): string {
  return `/${encodeURIComponent(review.power)}/${encodeURIComponent(review.tool)}/${side}.md`;
}

export function parseVersionPath(path: string): { power: string; tool: string; side: 'old' | 'new' } | undefined {
  const match = /^\/([^/]+)\/([^/]+)\/(old|new)\.md$/.exec(path);
  return match ? { power: decodeURIComponent(match[1]), tool: decodeURIComponent(match[2]), side: match[3] as 'old' | 'new' } : undefined;
}

/** The notification text for tools just put in quarantine. */
export function quarantineMessage(reviews: readonly ToolReviewInfo[]): string {
  const names = reviews.map((r) => `${r.power}:${r.tool}`).join(', ');
  const suspicious = reviews.some((r) => r.suspicious.length > 0) ? ' Some descriptions carry instruction-like text aimed at the agent.' : '';
  return `Grimoire held back ${reviews.length === 1 ? 'a tool that' : `${reviews.length} tools that`} changed since you approved ${reviews.length === 1 ? 'it' : 'them'} (or ${reviews.length === 1 ? 'is' : 'are'} new): ${names}.${suspicious}`;
}
