/** What the tool review shows (no `vscode` import): the Powers tree's review item and the two versions for the diff editor. */
import type { ToolReviewInfo, ToolVersionInfo } from '../protocol/records.js';
import type { ItemModel } from './tree-items.js';

export const REVIEW_SCHEME = 'grimoire-review';

/**
 * The Powers tree's review item, shown first while tools are held: "Review changes (n)" counts the
 * tools awaiting a decision; tools the user kept blocked are named apart ("Blocked tools (n)" when
 * nothing else awaits), so the count always matches what the item lists.
 */
export function reviewItem(reviews: readonly ToolReviewInfo[]): ItemModel {
  const pending = reviews.filter((r) => r.status === 'pending');
  const rejected = reviews.filter((r) => r.status === 'rejected');
  const suspicious = pending.filter((r) => r.suspicious.length > 0).length;
  const names = (list: readonly ToolReviewInfo[]) => list.map((r) => `${r.power}:${r.tool}`).join(', ');
  const blockedText = rejected.length ? `${rejected.length} kept blocked: ${names(rejected)}` : '';
  return {
    id: 'review:changes',
    label: pending.length ? `Review changes (${pending.length})` : `Blocked tools (${rejected.length})`,
    description: pending.length
      ? [`${names(pending)}${suspicious ? ` · ${suspicious} suspicious` : ''}`, blockedText].filter(Boolean).join(' · ')
      : names(rejected),
    tooltip: reviews
      .map(
        (r) =>
          `${r.power}:${r.tool} (${r.kind}` +
          `${r.status === 'rejected' ? ', kept blocked' : ', awaiting your review'}): ` +
          `${r.changes.join('; ') || 'new tool'}`,
      )
      .join('\n'),
    contextValue: pending.length ? 'grimoire.toolReview' : 'grimoire.toolReview.blocked',
    icon: pending.length
      ? { id: suspicious ? 'shield' : 'diff', color: suspicious ? 'errorForeground' : 'problemsWarningIcon.foreground' }
      : { id: 'circle-slash' },
    collapsible: false,
  };
}

/** The flags of a review in plain words, e.g. "override", "credentials". */
export function flagNames(review: Pick<ToolReviewInfo, 'suspicious'>): string[] {
  return [...new Set(review.suspicious.map((flag) => flag.kind.replace('-', ' ')))];
}

/** The buttons of every review decision, "Keep blocked" first: the default, the one Enter picks. */
export const KEEP_BLOCKED = 'Keep blocked';
export const APPROVE = 'Approve';

/**
 * The modal that confirms an approval: what changed and, for a flagged change, the flags by name
 * and the text that raised them. Every approval (notification, tree, palette) asks it.
 */
export function approvalPrompt(reviews: readonly ToolReviewInfo[]): { message: string; detail: string } {
  const flagged = reviews.filter((r) => r.suspicious.length > 0);
  const names = reviews.map((r) => `${r.power}:${r.tool}`).join(', ');
  const message = flagged.length
    ? `Approve ${names}? Flagged: ${[...new Set(flagged.flatMap(flagNames))].join(', ')}.`
    : `Approve ${names}? ${reviews.length === 1 ? 'It' : 'They'} will be in the agent's list again.`;
  const lines = reviews.map((r) => {
    const flags = r.suspicious.map((f) => `${f.kind.replace('-', ' ')}: "${f.excerpt}"`).join('; ');
    return `${r.power}:${r.tool}: ${r.changes.join('; ') || 'a new tool'}${flags ? `. Flagged ${flags}` : ''}.`;
  });
  if (flagged.length)
    lines.push(
      'Flagged text reads like instructions aimed at the agent. Approve only if you trust this server and the change is expected.',
    );
  return { message, detail: lines.join('\n') };
}

/** The modal of an approval: "Keep blocked" first (VS Code focuses the first button: Enter keeps it blocked); Escape decides nothing. */
export function approvalDialog(reviews: readonly ToolReviewInfo[]): {
  message: string;
  options: { modal: true; detail: string };
  items: [string, string];
} {
  const prompt = approvalPrompt(reviews);
  return { message: prompt.message, options: { modal: true, detail: prompt.detail }, items: [KEEP_BLOCKED, APPROVE] };
}

/** The notification after the diff opens: the change, its flags named, and the decision (approving asks again). */
export function reviewNotice(review: ToolReviewInfo): string {
  const flags = flagNames(review);
  return (
    `${review.power}:${review.tool}: ${review.changes.join('; ') || 'a new tool'}` +
    `${flags.length ? `. Flagged: ${flags.join(', ')}` : ''}. Held back until you decide.`
  );
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
  return match
    ? { power: decodeURIComponent(match[1]), tool: decodeURIComponent(match[2]), side: match[3] as 'old' | 'new' }
    : undefined;
}

/** The notification text for tools just put in quarantine. */
export function quarantineMessage(reviews: readonly ToolReviewInfo[]): string {
  const names = reviews.map((r) => `${r.power}:${r.tool}`).join(', ');
  const suspicious = reviews.some((r) => r.suspicious.length > 0)
    ? ' Some descriptions carry instruction-like text aimed at the agent.'
    : '';
  return (
    `Grimoire held back ${reviews.length === 1 ? 'a tool that' : `${reviews.length} tools that`} changed ` +
    `since you approved ${reviews.length === 1 ? 'it' : 'them'} (or ` +
    `${reviews.length === 1 ? 'is' : 'are'} new): ${names}.${suspicious}`
  );
}
