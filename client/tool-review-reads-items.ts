/** What the review of believed reads shows (no `vscode` import): the offer, the pick list and the confirmation. */
import type { ReadCandidateInfo } from '../protocol/records.js';

export const REVIEW_READS = 'Review reads';
export const MARK_READ_ONLY = 'Mark read-only';

const names = (list: readonly ReadCandidateInfo[], max = 4) =>
  list
    .slice(0, max)
    .map((c) => `${c.power}:${c.tool}`)
    .join(', ') + (list.length > max ? ` and ${list.length - max} more` : '');

/** The candidates that await the user's word: never confirmed, or changed since. */
export function awaitingWord(reads: readonly ReadCandidateInfo[]): ReadCandidateInfo[] {
  return reads.filter((read) => read.status !== 'confirmed');
}

/** The one notification that offers the review, e.g. after a config was imported. */
export function offerMessage(fresh: readonly ReadCandidateInfo[]): string {
  const one = fresh.length === 1;
  return (
    `Grimoire believes ${one ? 'a tool only reads' : `${fresh.length} tools only read`} ` +
    `(${names(fresh)}), but ${one ? 'its server does' : 'their servers do'} not say so: ` +
    `until you confirm ${one ? 'it' : 'them'}, the agent calls ${one ? 'it' : 'them'} as ` +
    `${one ? 'a write' : 'writes'} and your editor asks before each call.`
  );
}

/** One row of the pick list; unconfirmed rows start picked. */
export function pickItem(read: ReadCandidateInfo): {
  label: string;
  description: string;
  detail: string;
  picked: boolean;
} {
  const status =
    read.status === 'changed'
      ? 'changed since you confirmed it'
      : read.status === 'confirmed'
        ? 'confirmed read-only'
        : 'not confirmed';
  return {
    label: `${read.power}:${read.tool}`,
    description: status,
    detail: read.description.split('\n')[0].slice(0, 200),
    picked: read.status !== 'confirmed',
  };
}

/** The modal that confirms the choice: what the user grants, in plain words. */
export function confirmPrompt(chosen: readonly ReadCandidateInfo[]): { message: string; detail: string } {
  const one = chosen.length === 1;
  return {
    message: `Mark ${names(chosen, 6)} as read-only?`,
    detail:
      `The agent will call ${one ? 'it' : 'them'} through call_tool_read, ` +
      `and an editor that auto-approves reads will run ${one ? 'it' : 'them'} without asking. ` +
      `Confirm only tools that change nothing. A tool whose definition changes asks again.`,
  };
}
