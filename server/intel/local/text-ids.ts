/** Identifiers found in free text: URLs, UUIDs, commit hashes, file paths, issue keys, error codes, emails. */

const PATTERNS: Array<[string, RegExp]> = [
  ['urls', /\bhttps?:\/\/[^\s"'<>)\]}`,;]+[^\s"'<>)\]}`,;.:!?]/g],
  ['uuids', /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi],
  ['hashes', /(?<![\w-])(?=[0-9a-f]{0,63}[a-f])(?=[0-9a-f]{0,63}\d)[0-9a-f]{7,64}(?![\w-])/g],
  ['paths', /(?<![\w/:.-])(?:~|\.{1,2})?\/?(?:[\w@.+-]{1,80}\/){1,20}[\w@+-]{1,80}(?:\.[\w-]{1,8}){1,3}(?::\d+)?/g],
  ['issues', /(?<![\w&])#\d{1,7}\b|\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b/g],
  ['codes', /\b(?:[A-Z]{1,5}\d{3,6}|[A-Z]+_[A-Z_]{3,}|ERR_[A-Z_]+|E[A-Z]{3,})\b/g],
  ['emails', /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g],
];

const MAX_PER_KIND = 2_000;

/** Distinct identifiers by kind, in order of first appearance. */
export function textIdentifiers(text: string, kinds: string[] = PATTERNS.map(([k]) => k)): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const taken = new Set<string>();
  for (const [kind, pattern] of PATTERNS) {
    if (!kinds.includes(kind)) continue;
    const seen = new Set<string>();
    for (const match of text.matchAll(pattern)) {
      const value = match[0].trim();
      if (seen.has(value) || taken.has(value)) continue;
      if (kind === 'paths' && (value.startsWith('//') || /^\d+(\.\d+)+$/.test(value))) continue;
      if (kind === 'codes' && /^(HTTP|JSON|HTML|UTF|ISO|TODO|NOTE|FIXME|README)/.test(value)) continue;
      seen.add(value);
      if (seen.size >= MAX_PER_KIND) break;
    }
    if (seen.size > 0) {
      out.set(kind, [...seen]);
      for (const value of seen) taken.add(value);
    }
  }
  // A URL's path is not a second identifier.
  const urls = out.get('urls') ?? [];
  const paths = out.get('paths');
  if (paths && urls.length && paths.length * urls.length < 100_000)
    out.set(
      'paths',
      paths.filter((p) => !urls.some((u) => u.includes(p))),
    );
  if (out.get('paths')?.length === 0) out.delete('paths');
  return out;
}
