/** What the agent is told about a tool held for the user's review. */
export function awaitingReview(name: string): string {
  return (
    `Tool '${name}' changed since the user approved it (or is new) and awaits their review, so Grimoire does not call it. ` +
    `Tell the user: they can review it in the Grimoire Powers view or with 'grimoire tools changes', then approve it.`
  );
}

export const AWAITING_REVIEW_NOTE = "changed since approved (or new): awaits the user's review and cannot be called until approved";
