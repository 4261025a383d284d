import * as path from 'node:path';
import type { LoadIssue, PowerDefinition, RegistryChange } from './types.js';

/** One load issue as one line, for the log and the CLI: `file:line:column (field): message. Fix: fix`. */
export function formatIssue(issue: LoadIssue): string {
  const at = issue.line === undefined ? '' : `:${issue.line}${issue.column === undefined ? '' : `:${issue.column}`}`;
  return `${issue.file}${at}${issue.field ? ` (${issue.field})` : ''}: ${issue.message}. Fix: ${issue.fix}`;
}

/** "+1 -1 ~0 (added 'a'; removed 'b')". */
export function describeChange(change: Pick<RegistryChange, 'added' | 'removed' | 'changed'>): string {
  const counts = `+${change.added.length} -${change.removed.length} ~${change.changed.length}`;
  const names = (label: string, list: { name: string }[]) =>
    list.length ? [`${label} ${list.map((p) => `'${p.name}'`).join(', ')}`] : [];
  const parts = [
    ...names('added', change.added),
    ...names('removed', change.removed),
    ...names(
      'changed',
      change.changed.map((c) => c.after),
    ),
  ];
  return parts.length ? `${counts} (${parts.join('; ')})` : counts;
}

/** Why each removed power went, when it went because its own file now has a problem. */
export function brokenPowers(removed: PowerDefinition[], issues: LoadIssue[]): string[] {
  return removed
    .filter((power) => issues.some((issue) => issue.file === power.source.file))
    .map(
      (power) =>
        `power '${power.name}' is unavailable until ${path.basename(power.source.file)} is fixed (see the problem above)`,
    );
}
