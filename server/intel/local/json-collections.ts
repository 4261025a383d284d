/**
 * Where a JSON value keeps its bulk: arrays of items and maps of entries (objects with many keys
 * whose values look alike), found down to a few levels, biggest first.
 */

export interface Collection {
  /** JSONPath-like location, `$` for the root. */
  path: string;
  kind: 'array' | 'map';
  /** Array items, or map values (objects get their key as `$key`; scalars become `{ $key, $value }`). */
  items: unknown[];
  /** Rough size in characters, to rank collections. */
  weight: number;
}

const MAX_DEPTH = 4;
const MIN_MAP_KEYS = 5;

export function findCollections(root: unknown): Collection[] {
  const found: Collection[] = [];
  const visit = (value: unknown, path: string, depth: number) => {
    if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      if (value.length > 0) found.push({ path, kind: 'array', items: value, weight: weightOf(value) });
      // Wrappers around the real items (EC2 Reservations[].Instances[]): their nested items, flattened.
      for (const nested of flattened(value, path)) found.push(nested);
      // Arrays of arrays (rows) are a collection themselves; look inside only the first item for nested bulk.
      if (value.length > 0 && isPlainObject(value[0]))
        for (const [key, inner] of Object.entries(value[0]))
          if (Array.isArray(inner) && inner.length > 20) visit(inner, `${path}[0].${key}`, depth + 1);
      return;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length >= MIN_MAP_KEYS && looksLikeMap(entries)) {
      const items = entries.map(([key, inner]) =>
        isPlainObject(inner) ? { $key: key, ...inner } : { $key: key, $value: inner },
      );
      found.push({ path, kind: 'map', items, weight: weightOf(items) });
      return;
    }
    for (const [key, inner] of entries) visit(inner, path === '$' ? `$.${key}` : `${path}.${key}`, depth + 1);
  };
  visit(root, '$', 0);
  return found.sort((a, b) => b.weight - a.weight);
}

/** Nested arrays of objects that hold most of a wrapper array's weight, flattened across its items; they rank above the wrapper. */
function flattened(items: unknown[], path: string): Collection[] {
  const objects = items.filter(isPlainObject);
  if (objects.length === 0 || objects.length < items.length / 2) return [];
  const out: Collection[] = [];
  const total = weightOf(items);
  for (const key of Object.keys(objects[0]!)) {
    // A tree's children are its structure, not a wrapper's payload: the tree summarizer walks them with their parents.
    if (CHILD_KEYS.includes(key)) continue;
    const lists = objects
      .map((item) => item[key])
      .filter((v): v is unknown[] => Array.isArray(v) && v.some(isPlainObject));
    if (lists.length < objects.length / 2) continue;
    const flat = lists.flat();
    const weight = weightOf(flat);
    if (flat.length >= objects.length && weight >= total * 0.6)
      out.push({ path: `${path}[*].${key}`, kind: 'array', items: flat, weight: total + 1 });
  }
  return out;
}

/** Many keys, values all objects (of similar keys) or all scalars: a dictionary, not a record. */
function looksLikeMap(entries: Array<[string, unknown]>): boolean {
  const objects = entries.filter(([, v]) => isPlainObject(v)).length;
  if (objects === entries.length) {
    const sample = entries.slice(0, 8).map(([, v]) => new Set(Object.keys(v as object)));
    const first = sample[0]!;
    const shared = sample.every((keys) => [...first].some((k) => keys.has(k)));
    return shared;
  }
  const scalars = entries.filter(([, v]) => v === null || typeof v !== 'object').length;
  // A record has mixed value types and few keys; a map of scalars has many keys of one type.
  if (scalars !== entries.length || entries.length < 8) return false;
  const types = new Set(entries.map(([, v]) => typeof v));
  return types.size === 1;
}

function weightOf(items: unknown[]): number {
  const sample = items.slice(0, 5);
  const avg =
    sample.reduce<number>((sum, item) => sum + (JSON.stringify(item)?.length ?? 4), 0) / Math.max(1, sample.length);
  return avg * items.length;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Children arrays that make a collection a tree (directory trees, outlines, org charts). */
export const CHILD_KEYS = ['children', 'nodes', 'subitems', 'entries', 'contents'];

export function childKeyOf(items: unknown[]): string | undefined {
  for (const key of CHILD_KEYS) {
    if (
      items.some(
        (item) => isPlainObject(item) && Array.isArray(item[key]) && (item[key] as unknown[]).some(isPlainObject),
      )
    )
      return key;
  }
  return undefined;
}
