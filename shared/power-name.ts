/** Power names: lowercase letters, digits and "-" (the spell schema's `name` rule). */

/** A config's server key as a power name: lowercase, runs of other characters become "-" (empty when none is left). */
export function normalizeName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A valid power name made from any text: lowercase, runs of other characters become "-". */
export function powerNameFrom(raw: string): string {
  return normalizeName(raw) || 'my-power';
}
