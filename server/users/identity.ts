/**
 * Who made a request: the gateway's owner (the single bearer token it prints, the local identity),
 * a user added with `grimoire users add`, or the reviewer (the admin token, GRIMOIRE_ADMIN_TOKEN).
 * Every token but the reviewer's is an MCP bearer token that an agent's client holds, so only the
 * reviewer may approve or reject a tool change over REST: an agent must not approve its own tools.
 */
export type Role = 'admin' | 'member';

export interface Identity {
  /** null: the owner (local token). */
  user: string | null;
  role: Role;
  /** The admin token: it decides tool reviews over REST and opens no MCP session. */
  reviewer?: true;
}

export const OWNER: Identity = { user: null, role: 'admin' };
export const REVIEWER: Identity = { user: null, role: 'admin', reviewer: true };

export class ForbiddenError extends Error {}

/** The check for approving or rejecting a tool change: only the reviewer's credential, never an MCP bearer token. */
export function requireReviewer(identity: Identity, action: string): void {
  if (identity.reviewer) return;
  const who = identity.user === null ? "the gateway's MCP token" : `user '${identity.user}'s token (an MCP token)`;
  throw new ForbiddenError(
    `${action} takes a credential the agent's MCP client does not hold, not ${who}: ` +
      `decide in the editor's tool review, with 'grimoire tools approve|reject', ` +
      `or over REST with the admin token (GRIMOIRE_ADMIN_TOKEN) as the bearer.`,
  );
}
