/**
 * Gateway users in the store: a token is shown once at `add` and kept only as a salted SHA-256
 * (tokens are 256 random bits, so a fast hash is as safe as a slow one and costs microseconds per
 * request). A token reads `grm_<id>.<secret>`: the id finds the row, the secret is checked.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store-interface.js';
import type { Identity, Role } from './identity.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const TOKEN = /^grm_([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/;

export interface UserRow {
  name: string;
  role: Role;
  created_at: number;
}

const hash = (salt: string, secret: string) => createHash('sha256').update(salt).update(secret).digest('hex');

export class UserDirectory {
  constructor(private readonly store: Store) {}

  /** Adds a user and returns their token (the only time it exists in clear). */
  add(name: string, role: Role): string {
    if (!NAME.test(name))
      throw new Error(
        `user name '${name.slice(0, 80)}' is not allowed: use letters, digits, '.', '_' or '-' (at most 64).`,
      );
    if (this.find(name)) throw new Error(`user '${name}' already exists: remove it first to issue a new token.`);
    const id = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const salt = randomBytes(16).toString('hex');
    this.store.write({
      op: 'insert',
      table: 'users',
      row: { name, role, token_id: id, token_salt: salt, token_hash: hash(salt, secret), created_at: Date.now() },
    });
    return `grm_${id}.${secret}`;
  }

  list(): UserRow[] {
    return this.store.query<UserRow>('SELECT name, role, created_at FROM users ORDER BY name');
  }

  find(name: string): UserRow | undefined {
    return this.store.query<UserRow>('SELECT name, role, created_at FROM users WHERE name = ?', [name])[0];
  }

  /** Returns false when there was no such user. */
  remove(name: string): boolean {
    if (!this.find(name)) return false;
    this.store.write({ op: 'delete', table: 'users', where: { name } });
    return true;
  }

  /** The user a bearer token belongs to, or undefined. */
  authenticate(token: string): Identity | undefined {
    const match = TOKEN.exec(token);
    if (!match) return undefined;
    const [row] = this.store.query<{ name: string; role: Role; token_salt: string; token_hash: string }>(
      'SELECT name, role, token_salt, token_hash FROM users WHERE token_id = ?',
      [match[1]],
    );
    if (!row) return undefined;
    const given = Buffer.from(hash(row.token_salt, match[2]), 'hex');
    const expected = Buffer.from(row.token_hash, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { user: row.name, role: row.role === 'admin' ? 'admin' : 'member' };
  }
}
