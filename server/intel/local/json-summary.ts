/**
 * The local summary of a JSON result: its shape, the biggest collection's counts, value
 * distributions and ranges, the first and the most salient items, pagination, and every
 * identifier-like field of every item (compactly).
 */
import { clip, joinWithin, plural, topCounts } from './format.js';
import { NAMES_SHARE, type Findings } from './findings.js';
import { idPriority, isIdField, isSalientText, LABEL_FIELDS } from './id-fields.js';
import { childKeyOf, findCollections, isPlainObject, type Collection } from './json-collections.js';
import { summarizeTree } from './json-tree.js';

const SAMPLE = 5_000;
const CATEGORY_PREFERENCE =
  /^(status|state|type|kind|level|severity|category|conclusion|result|priority|role|method|visibility)$/i;
const STATUS_BAD =
  /^(fail(ed|ure)?|error|errored|cancel(l)?ed|critical|high|blocker|rejected|timed_out|broken|down|unhealthy|red)$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
const PAGINATION =
  /^(next|next_?cursor|nextCursor|next_?page(_token)?|nextPageToken|cursor|has_?more|hasMore|has_next_page|continuation(_token)?|after|end_cursor|endCursor|next_link|@odata\.nextLink|links?)$/i;
const VERSION = /^(?:[~^<>=v]|>=|<=)*\s*\d+(?:\.[\dx*]+){0,3}(?:[-+][\w.]+)?$/;
const TOTAL = /^(total|total_?count|totalCount|count|total_?results|totalResults|total_?items|hits)$/i;

export function summarizeJson(root: unknown, out: Findings): void {
  const collections = findCollections(root);
  const main = collections[0];
  if (isPlainObject(root)) describeRootObject(root, main, out);
  if (!main) {
    describeFlatObject(root, out);
    return;
  }
  const childKey = childKeyOf(main.items);
  if (childKey) {
    out.widen(NAMES_SHARE);
    summarizeTree(main.items, childKey, out, main.path === '$' ? '' : ` at ${main.path}`);
  } else {
    describeCollection(main, out, 0);
  }
  for (const other of collections.slice(1, 4)) {
    if (other.path.startsWith(`${main.path}[`) || childKeyOf(other.items)) continue;
    const objects = other.items.filter(isPlainObject) as Array<Record<string, unknown>>;
    const distribution =
      objects.length >= other.items.length / 2
        ? categoricalFields(objects.slice(0, SAMPLE)).slice(0, 2).join('; ')
        : undefined;
    out.finding(`${other.path}: ${describeKind(other)}${fieldsNote(other)}${distribution ? `; ${distribution}` : ''}.`);
    collectIdentifiers(other, out, 2);
  }
}

function describeKind(collection: Collection): string {
  if (collection.kind === 'map') return `map of ${plural(collection.items.length, 'entry', 'entries')}`;
  const objects = collection.items.filter(isPlainObject).length;
  if (objects === collection.items.length) return `array of ${plural(collection.items.length, 'object')}`;
  const types = new Set(
    collection.items.map((item) => (Array.isArray(item) ? 'array' : item === null ? 'null' : typeof item)),
  );
  return `array of ${collection.items.length.toLocaleString('en-US')} ${[...types].join('/')} values`;
}

function fieldsNote(collection: Collection): string {
  const fields = fieldOrder(collection.items.slice(0, 200));
  return fields.length
    ? ` (fields: ${joinWithin(
        fields.filter((f) => f !== '$key' && f !== '$value'),
        140,
      )})`
    : '';
}

function describeRootObject(root: Record<string, unknown>, main: Collection | undefined, out: Findings): void {
  const entries = Object.entries(root);
  const scalars = entries.filter(([, v]) => v === null || typeof v !== 'object');
  const shape = entries.map(([k, v]) => `${k}${Array.isArray(v) ? `[${v.length}]` : isPlainObject(v) ? '{}' : ''}`);
  if (main && main.path !== '$')
    out.finding(
      `JSON object with ${plural(entries.length, 'key')} (${joinWithin(shape, 160)}); the bulk is ${main.path}, ${describeKind(main)}.`,
    );
  const pagination = scalars.filter(([k]) => PAGINATION.test(k) || TOTAL.test(k));
  const total = scalars.find(([k, v]) => TOTAL.test(k) && typeof v === 'number');
  if (main && total && typeof total[1] === 'number' && total[1] > main.items.length) {
    out.insight(
      `This page holds ${main.items.length.toLocaleString('en-US')} of ${total[1].toLocaleString('en-US')} ` +
        `items (${total[0]}): ask for the next page if you need more.`,
    );
  }
  const paging = entries.filter(
    ([k, v]) => PAGINATION.test(k) && v !== null && v !== false && v !== '' && !TOTAL.test(k),
  );
  const next = paging.find(([, v]) => typeof v !== 'boolean') ?? paging[0];
  if (next) out.insight(`More results are available: ${next[0]} = ${clip(JSON.stringify(next[1]), 120)}.`);
  const shown = scalars.filter(([k]) => !pagination.some(([p]) => p === k)).slice(0, 8);
  if (shown.length > 0)
    out.finding(`Top-level values: ${shown.map(([k, v]) => `${k}=${clip(String(v), 40)}`).join(', ')}.`);
}

/** A JSON value with no collection: name its keys and values. */
function describeFlatObject(root: unknown, out: Findings): void {
  if (!isPlainObject(root)) {
    out.finding(`JSON ${Array.isArray(root) ? 'array' : typeof root}: ${clip(JSON.stringify(root), 200)}`);
    return;
  }
  const leaves: Array<[string, unknown]> = [];
  const walk = (value: unknown, path: string) => {
    if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
    else leaves.push([path, value]);
  };
  walk(root, '');
  out.finding(
    `JSON object with ${plural(leaves.length, 'value')}: ${joinWithin(
      leaves.map(([k, v]) => `${k}=${clip(JSON.stringify(v) ?? 'null', 40)}`),
      400,
    )}.`,
  );
  const ids = leaves.filter(
    ([k, v]) => isIdField(k.split('.').pop()!) && (typeof v === 'string' || typeof v === 'number'),
  );
  for (const [k, v] of ids) out.identifiers(k, [v as string | number], idPriority(k.split('.').pop()!));
}

function describeCollection(collection: Collection, out: Findings, priority: number): void {
  const items = collection.items;
  const objects = items.filter(isPlainObject) as Array<Record<string, unknown>>;
  const where = collection.path === '$' ? '' : ` at ${collection.path}`;
  if (objects.length < items.length / 2) {
    describeScalars(items, where, out, priority);
    return;
  }
  out.finding(`${capitalize(describeKind(collection))}${where}${fieldsNote(collection)}.`);
  const sample = objects.length > SAMPLE ? objects.slice(0, SAMPLE) : objects;
  // `Instances[*].InstanceId`: the id named after the collection labels its items.
  const noun = (/([A-Za-z]+?)(?:es|s)?(?:\[\*\])?$/.exec(collection.path)?.[1] ?? '').toLowerCase();
  const preferred =
    noun.length >= 3
      ? Object.keys(objects[0] ?? {}).find((k) => isIdField(k) && k.toLowerCase().startsWith(noun))
      : undefined;
  const label = (item: Record<string, unknown>) => labelOf(item, preferred);
  const distributions = categoricalFields(sample);
  if (distributions.length > 0) out.finding(distributions.slice(0, 3).join('; ') + '.');
  const ranges = rangeFields(sample);
  out.finding(`First: ${joinWithin(objects.slice(0, 3).map(label), 260, ' · ')}.`);
  const flagged = objects.flatMap((item) => {
    const condition = salientCondition(item);
    return condition ? [{ item, condition }] : [];
  });
  if (flagged.length > 0) {
    const salient = flagged.map((f) => f.item);
    out.finding(`Needs attention (${salient.length}): ${joinWithin(salient.slice(0, 3).map(label), 240, ' · ')}.`);
    const groups = groupConditions(flagged);
    for (const [condition, items] of groups)
      out.attention(
        `${condition} (${items.length})`,
        items.map((item) => primaryIdOf(item, preferred) ?? clip(label(item), 60)),
      );
    out.insight(
      `${plural(salient.length, 'item')} look${salient.length === 1 ? 's' : ''} failed or flagged, ` +
        `all named under identifiers ${[...groups.keys()].map((c) => `"${c}"`).join(', ')}.`,
    );
  }
  if (ranges.length > 0) out.finding(ranges.slice(0, 3).join('; ') + '.');
  collectIdentifiers(collection, out, priority);
}

function describeScalars(items: unknown[], where: string, out: Findings, priority: number): void {
  const strings = items.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  out.finding(
    `Array of ${items.length.toLocaleString('en-US')} values${where}; first: ${joinWithin(
      strings.slice(0, 5).map((v) => clip(String(v), 60)),
      240,
    )}.`,
  );
  const counts = new Map<string, number>();
  for (const value of strings) counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
  if (counts.size < strings.length)
    out.finding(`${plural(counts.size, 'distinct value')}; most frequent: ${topCounts(counts, 5)}.`);
  const idLike = strings.filter((v) => typeof v === 'number' || (v.length <= 200 && !/\s/.test(v)));
  if (idLike.length >= strings.length * 0.8) out.identifiers(`values${where}`, idLike, priority);
}

/** Identifier fields of every item (and of one level of nested objects), URL fields as templates where they can be. */
function collectIdentifiers(collection: Collection, out: Findings, basePriority: number): void {
  const items = collection.items.filter(isPlainObject) as Array<Record<string, unknown>>;
  const at = collection.path === '$' ? '' : `${collection.path}[*].`;
  if (collection.kind === 'map') {
    // name@version for dependency maps and lock files; other maps (settings, environments) by key alone.
    const versions = items.every(
      (item) => typeof item.version === 'string' || (typeof item.$value === 'string' && VERSION.test(item.$value)),
    );
    const keys = items.map((item) =>
      versions ? `${item.$key}@${String(item.version ?? item.$value)}` : String(item.$key),
    );
    out.identifiers(`${collection.path} keys${versions ? '@value' : ''}`, keys, basePriority);
  }
  const fields = fieldOrder(items.slice(0, 200)).filter((f) => f !== '$key' && f !== '$value');
  const scalarIds = fields.filter(
    (f) => (isIdField(f) && items.some((item) => isIdValue(item[f]))) || looksLikeIds(items, f),
  );
  for (const field of scalarIds) {
    const values = items.map((item) => item[field]).filter(isIdValue);
    // Named ids first; among equals, the cheaper list first (it is more likely to fit whole).
    const priority =
      basePriority + (isIdField(field) ? idPriority(field) : 2) + Math.min(0.9, averageLength(values) / 100);
    const template = templateOf(items, field, scalarIds);
    if (template) out.identifierText(`${at}${field}`, template, values.length, basePriority + idPriority(field));
    else out.identifiers(`${at}${field}`, values, priority);
  }
  // One level down: user.login, head.sha, commit.id ...
  for (const field of fields) {
    const nested = items.map((item) => item[field]).filter(isPlainObject);
    if (nested.length < items.length / 2) continue;
    const inner = fieldOrder(nested.slice(0, 50)).filter((f) => isIdField(f) && idPriority(f) <= 1);
    for (const key of inner.slice(0, 2)) {
      const values = nested.map((n) => n[key]).filter(isIdValue);
      if (values.length > 0) out.identifiers(`${at}${field}.${key}`, values, basePriority + 3 + idPriority(key));
    }
  }
  // Arrays of named things inside items: labels[].name, tags[] ...
  for (const field of fields) {
    const lists = items.map((item) => item[field]).filter(Array.isArray);
    if (lists.length < items.length / 3) continue;
    const names = lists
      .flat()
      .map((v) => (isPlainObject(v) ? (v.name ?? v.login ?? v.id) : v))
      .filter(isIdValue);
    if (names.length > 0 && names.length <= items.length * 10)
      out.identifiers(`${at}${field}[]`, names, basePriority + 4);
  }
}

/** `https://host/x/issues/{number}` when every item's URL is the other field's value between a fixed prefix and suffix. */
function templateOf(items: Array<Record<string, unknown>>, field: string, idFields: string[]): string | undefined {
  if (!/url|uri|href|link/i.test(field)) return undefined;
  const first = items.find((item) => typeof item[field] === 'string');
  if (!first || items.length < 3) return undefined;
  for (const other of idFields) {
    if (other === field) continue;
    const key = first[other];
    if (!isIdValue(key)) continue;
    const url = String(first[field]);
    const at = url.lastIndexOf(String(key));
    if (at < 0) continue;
    const prefix = url.slice(0, at);
    const suffix = url.slice(at + String(key).length);
    if (items.every((item) => item[field] === undefined || item[field] === `${prefix}${String(item[other])}${suffix}`))
      return `${prefix}{${other}}${suffix}`;
  }
  return undefined;
}

/** A field whose values look like identifiers whatever its name (`ts`, `user`): distinct tokens without spaces, not dates. */
function looksLikeIds(items: Array<Record<string, unknown>>, field: string): boolean {
  if (isIdField(field) || items.length < 3) return false;
  const values = items.map((item) => item[field]).filter((v): v is string => typeof v === 'string');
  if (values.length < items.length * 0.8) return false;
  if (!values.every((v) => v.length >= 4 && v.length <= 80 && !/\s/.test(v) && !ISO_DATE.test(v))) return false;
  return new Set(values).size >= values.length * 0.9;
}

function averageLength(values: Array<string | number>): number {
  return values.reduce<number>((sum, v) => sum + String(v).length, 0) / Math.max(1, values.length);
}

function isIdValue(value: unknown): value is string | number {
  return (
    (typeof value === 'number' && Number.isFinite(value)) ||
    (typeof value === 'string' && value.length > 0 && value.length <= 300)
  );
}

/** Fields in the order they first appear, most frequent first among ties. */
function fieldOrder(items: unknown[]): string[] {
  const seen = new Map<string, number>();
  for (const item of items)
    if (isPlainObject(item)) for (const key of Object.keys(item)) seen.set(key, (seen.get(key) ?? 0) + 1);
  return [...seen.keys()];
}

function categoricalFields(items: Array<Record<string, unknown>>): string[] {
  if (items.length < 4) return [];
  const out: Array<{ text: string; rank: number }> = [];
  for (const field of fieldOrder(items.slice(0, 200))) {
    const counts = new Map<string, number>();
    let present = 0;
    for (const item of items) {
      const value = item[field];
      if (typeof value === 'string' || typeof value === 'boolean') {
        present++;
        counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
        if (counts.size > 12) break;
      } else if (
        Array.isArray(value) &&
        value.every((v) => typeof v === 'string' || (isPlainObject(v) && typeof v.name === 'string'))
      ) {
        present++;
        for (const v of value) {
          const name = typeof v === 'string' ? v : String((v as { name: string }).name);
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
        if (counts.size > 40) break;
      }
    }
    if (
      present < items.length / 2 ||
      counts.size < 2 ||
      counts.size > (Array.isArray(items[0]?.[field]) ? 40 : 12) ||
      counts.size >= present * 0.6
    )
      continue;
    out.push({ text: `${field}: ${topCounts(counts, 6, 30)}`, rank: CATEGORY_PREFERENCE.test(field) ? 0 : 1 });
  }
  return out.sort((a, b) => a.rank - b.rank).map((entry) => entry.text);
}

function rangeFields(items: Array<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const field of fieldOrder(items.slice(0, 200))) {
    if (isIdField(field)) continue;
    const numbers = items
      .map((item) => item[field])
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (numbers.length >= items.length / 2 && numbers.length >= 3) {
      let min = Infinity;
      let max = -Infinity;
      let sum = 0;
      for (const n of numbers) {
        if (n < min) min = n;
        if (n > max) max = n;
        sum += n;
      }
      const total =
        /size|bytes|count|total|amount|lines|comments|stars|downloads|duration|cost|price|qty|quantity/i.test(field)
          ? `, sum ${round(sum)}`
          : '';
      out.push(`${field} ${round(min)}–${round(max)}${total}`);
      continue;
    }
    const dates = items
      .map((item) => item[field])
      .filter((v): v is string => typeof v === 'string' && ISO_DATE.test(v));
    if (dates.length >= items.length / 2 && dates.length >= 2) {
      const sorted = [...dates].sort();
      out.push(`${field} ${sorted[0]} … ${sorted[sorted.length - 1]}`);
    }
  }
  return out;
}

/** Why an item needs attention (`status=failed`, `labels: bug`, `error=true`), or undefined. */
function salientCondition(item: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(item)) {
    if (typeof value === 'string') {
      if (CATEGORY_PREFERENCE.test(key) && STATUS_BAD.test(value)) return `${key}=${value}`;
      if (LABEL_FIELDS.includes(key) && isSalientText(value)) return `${key} mentions a failure`;
    } else if (typeof value === 'boolean' && /^(error|failed|is_?error|critical|deprecated)$/i.test(key) && value)
      return `${key}=true`;
    else if (Array.isArray(value) && /label|tag/i.test(key)) {
      const hit = value.find((v) =>
        typeof v === 'string'
          ? isSalientText(v)
          : isPlainObject(v) && typeof v.name === 'string' && /bug|critical|security|regression|blocker/i.test(v.name),
      );
      if (hit !== undefined)
        return `${key}: ${clip(typeof hit === 'string' ? hit : String((hit as { name: string }).name), 30)}`;
    }
  }
  // Deeper down, only state-like fields count (status.containerStatuses[].state.waiting.reason).
  const state = nestedStates(item, 0).find((text) => isSalientText(text) || STATUS_BAD.test(text));
  return state === undefined ? undefined : `state ${clip(state, 30)}`;
}

/** Flagged items by condition, largest group first; past five conditions the rest share one group. */
function groupConditions(
  flagged: Array<{ item: Record<string, unknown>; condition: string }>,
): Map<string, Array<Record<string, unknown>>> {
  const byCondition = new Map<string, Array<Record<string, unknown>>>();
  for (const { item, condition } of flagged) byCondition.set(condition, [...(byCondition.get(condition) ?? []), item]);
  const sorted = [...byCondition].sort((a, b) => b[1].length - a[1].length);
  if (sorted.length <= 5) return new Map(sorted);
  return new Map([...sorted.slice(0, 4), ['other flags', sorted.slice(4).flatMap(([, items]) => items)]]);
}

/** The item's primary id value (its preferred, number, key, id ... field), if it has one. */
function primaryIdOf(item: Record<string, unknown>, preferred?: string): string | number | undefined {
  const field =
    (preferred && isIdValue(item[preferred]) ? preferred : undefined) ??
    ['number', 'key', 'id', 'sha', 'uuid', 'guid'].find((k) => isIdValue(item[k])) ??
    Object.keys(item).find((k) => isIdField(k) && idPriority(k) <= 2 && isIdValue(item[k]));
  return field ? (item[field] as string | number) : undefined;
}

function nestedStates(value: unknown, depth: number, out: string[] = []): string[] {
  if (depth > 5 || out.length > 40) return out;
  if (Array.isArray(value)) for (const v of value.slice(0, 10)) nestedStates(v, depth + 1, out);
  else if (isPlainObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (
        typeof v === 'string' &&
        depth > 0 &&
        /^(reason|status|state|phase|conclusion|result|level|severity|failure_code|error|error_code)$/i.test(key)
      )
        out.push(v);
      else if (typeof v === 'object') nestedStates(v, depth + 1, out);
    }
  }
  return out;
}

/** One line for an item: its primary id, its title-like field and its state-like field. */
export function labelOf(item: Record<string, unknown>, preferred?: string): string {
  const idField =
    (preferred && isIdValue(item[preferred]) ? preferred : undefined) ??
    ['number', 'key', 'id', 'sha', 'uuid', 'guid'].find((k) => isIdValue(item[k])) ??
    Object.keys(item).find((k) => isIdField(k) && idPriority(k) <= 2 && isIdValue(item[k]));
  const labelField = LABEL_FIELDS.find((f) => typeof item[f] === 'string' && f !== idField);
  const stateField = Object.keys(item).find(
    (k) => CATEGORY_PREFERENCE.test(k) && (typeof item[k] === 'string' || typeof item[k] === 'boolean'),
  );
  const parts: string[] = [];
  if (item.$key !== undefined) parts.push(String(item.$key));
  if (idField)
    parts.push(idField === 'number' ? `#${String(item[idField])}` : `${idField} ${clip(String(item[idField]), 40)}`);
  if (labelField) parts.push(`"${clip(String(item[labelField]), 70)}"`);
  // Kubernetes-style records keep their name one level down (metadata.name).
  if (!idField && !labelField) {
    for (const inner of Object.values(item)) {
      if (!isPlainObject(inner)) continue;
      const name = ['name', 'id', 'key', 'title'].find((k) => isIdValue(inner[k]));
      if (name) {
        parts.push(clip(String(inner[name]), 60));
        break;
      }
    }
  }
  if (stateField) parts.push(`(${String(item[stateField])})`);
  if (parts.length === 0) return clip(JSON.stringify(item), 90);
  return parts.join(' ');
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const round = (n: number) =>
  Number.isInteger(n) ? n.toLocaleString('en-US') : (Math.round(n * 100) / 100).toLocaleString('en-US');
