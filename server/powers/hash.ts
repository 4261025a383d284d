/** Content hashes of power definitions. */
import { valueHash } from '../../shared/hash.js';
import type { PowerDefinition } from './types.js';

export type UnhashedPower = Omit<PowerDefinition, 'serverHash' | 'definitionHash'>;

/** `extra` is hashed into definitionHash too (spell extensions the contract does not carry). */
export function withHashes(power: UnhashedPower, extra?: unknown): PowerDefinition {
  const serverHash = valueHash(power.server);
  const definitionHash = valueHash({ ...power, serverHash, extra });
  return { ...power, serverHash, definitionHash };
}
