/**
 * Who made a request: the gateway's owner (the single bearer token it prints, the local identity)
 * or a user added with `grimoire users add`. Roles: an admin may approve tool changes.
 */
export type Role = 'admin' | 'member';

export interface Identity {
  /** null: the owner (local token). */
  user: string | null;
  role: Role;
}

export const OWNER: Identity = { user: null, role: 'admin' };

export class ForbiddenError extends Error {}

/** The role check for admin-only actions (approving or rejecting a tool change). */
export function requireAdmin(identity: Identity, action: string): void {
  if (identity.role !== 'admin') {
    throw new ForbiddenError(`${action} needs an admin: user '${identity.user}' is a member (grimoire users add NAME --admin).`);
  }
}
