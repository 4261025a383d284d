/** Power names: lowercase letters, digits and "-" (the spell schema's `name` rule). */

/** A valid power name made from any text: lowercase, runs of other characters become "-". */
export function powerNameFrom(raw: string): string {
  const name = raw
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return name || 'my-power';
}
