/**
 * Lists of identifiers written compactly, in the brace notation agents know from shells:
 * integers as runs (`1200..1229 1301`), values that differ only in a number as
 * `ORD-{7000..7119}` or `file{0..14}.ts`, and values sharing a long prefix as
 * `https://host/path/{a,b,c}`. Nothing is dropped unless the list does not fit its budget, and then
 * the text says how many are missing. `expandCompact` is the inverse.
 */

export interface CompactList {
  text: string;
  /** How many values the text names. */
  kept: number;
  total: number;
}

interface Part {
  text: string;
  count: number;
  /** For a braced part: its prefix, members (each with its count) and suffix, so it can be cut. */
  group?: { prefix: string; members: Array<{ text: string; count: number }>; suffix: string };
}

const NUMBERED = /^(.*?)(0|[1-9]\d{0,14})(\D*)$/;
const SPACED_SEPARATOR = ' | ';
const MIN_GROUP = 3;

export function compactValues(values: Array<string | number>, maxChars: number): CompactList {
  const distinct = [...new Set(values.map(String))];
  if (distinct.length === 0) return { text: '', kept: 0, total: 0 };
  // Values with spaces in them ("Alice Smith") are told apart by a bar.
  return fit(parts(distinct), distinct.length, maxChars, distinct.some((v) => /\s/.test(v)) ? SPACED_SEPARATOR : ' ');
}

function parts(values: string[]): Part[] {
  // Values that differ only in a number: group by what surrounds it.
  const numbered = new Map<string, { prefix: string; suffix: string; numbers: number[]; first: number }>();
  values.forEach((value, index) => {
    const match = NUMBERED.exec(value);
    if (!match) return;
    const key = `${match[1]}\u0000${match[3]}`;
    const group = numbered.get(key);
    if (group) group.numbers.push(Number(match[2]));
    else numbered.set(key, { prefix: match[1]!, suffix: match[3]!, numbers: [Number(match[2])], first: index });
  });
  const placed = new Map<number, Part>();
  const grouped = new Set<string>();
  for (const group of numbered.values()) {
    if (group.numbers.length < MIN_GROUP && !(group.prefix === '' && group.suffix === '')) continue;
    const members = integerRuns(group.numbers);
    for (const n of group.numbers) grouped.add(`${group.prefix}${n}${group.suffix}`);
    if (group.prefix === '' && group.suffix === '') {
      // Bare integers: runs side by side.
      members.forEach((member, i) => placed.set(group.first + i / 1000, { text: member.text, count: member.count }));
      continue;
    }
    placed.set(group.first, {
      text: braced(group.prefix, members, group.suffix),
      count: group.numbers.length,
      group: { prefix: group.prefix, members, suffix: group.suffix },
    });
  }
  const rest = values.map((value, index) => ({ value, index })).filter(({ value }) => !grouped.has(value));
  for (const part of prefixGroups(rest)) placed.set(part.index, part.part);
  return [...placed.entries()].sort((a, b) => a[0] - b[0]).map(([, part]) => part);
}

function braced(prefix: string, members: Array<{ text: string }>, suffix: string): string {
  return `${prefix}{${members.map((m) => m.text).join(',')}}${suffix}`;
}

/** Sorted distinct integers as runs: `a..b` for three or more in a row. */
function integerRuns(numbers: number[]): Array<{ text: string; count: number }> {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: Array<{ text: string; count: number }> = [];
  let start = sorted[0]!;
  let prev = start;
  const flush = () => {
    if (prev - start >= 2) runs.push({ text: `${start}..${prev}`, count: prev - start + 1 });
    else for (let n = start; n <= prev; n++) runs.push({ text: String(n), count: 1 });
  };
  for (const n of sorted.slice(1)) {
    if (n === prev + 1) {
      prev = n;
      continue;
    }
    flush();
    start = prev = n;
  }
  flush();
  return runs;
}

/**
 * Values sharing a prefix (cut at a separator) of at least 8 characters, three or more of them:
 * sorted, then clustered while the cluster's common prefix stays that long.
 */
function prefixGroups(values: Array<{ value: string; index: number }>): Array<{ index: number; part: Part }> {
  const sorted = [...values].sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  const clusters: Array<{ prefix: string; members: Array<{ value: string; index: number }> }> = [];
  for (const entry of sorted) {
    const last = clusters[clusters.length - 1];
    if (last && !/[{},]/.test(entry.value)) {
      const prefix = cutAtSeparator(commonPrefix(last.prefix || last.members[0]!.value, entry.value));
      if (prefix.length >= 8 && prefix.length < entry.value.length) {
        last.prefix = prefix;
        last.members.push(entry);
        continue;
      }
    }
    clusters.push({ prefix: '', members: [entry] });
  }
  const out: Array<{ index: number; part: Part }> = [];
  for (const { prefix, members } of clusters) {
    const first = Math.min(...members.map((m) => m.index));
    if (members.length >= MIN_GROUP && prefix.length >= 8) {
      const list = [...members]
        .sort((a, b) => a.index - b.index)
        .map((m) => ({ text: m.value.slice(prefix.length), count: 1 }));
      out.push({
        index: first,
        part: { text: braced(prefix, list, ''), count: members.length, group: { prefix, members: list, suffix: '' } },
      });
    } else for (const member of members) out.push({ index: member.index, part: { text: member.value, count: 1 } });
  }
  return out;
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/** A prefix ending just after a separator, so that names stay whole. */
function cutAtSeparator(prefix: string): string {
  for (let i = prefix.length - 1; i >= 0; i--) if ('/:.-_#=@'.includes(prefix[i]!)) return prefix.slice(0, i + 1);
  return '';
}

function fit(list: Part[], total: number, maxChars: number, separator: string): CompactList {
  let text = '';
  let kept = 0;
  for (const part of list) {
    const next = text ? `${text}${separator}${part.text}` : part.text;
    if (next.length > maxChars) {
      // A braced part that does not fit whole keeps as many members as fit.
      const room = maxChars - text.length - 16;
      const partial = part.group && room > part.group.prefix.length + 8 ? cutGroup(part.group, room) : undefined;
      if (partial) {
        text = text ? `${text}${separator}${partial.text}` : partial.text;
        kept += partial.count;
      }
      break;
    }
    text = next;
    kept += part.count;
  }
  if (kept < total) text = `${text} …+${total - kept} more`.trim();
  return { text, kept, total };
}

function cutGroup(group: NonNullable<Part['group']>, room: number): { text: string; count: number } | undefined {
  const taken: Array<{ text: string; count: number }> = [];
  let length = group.prefix.length + group.suffix.length + 2;
  for (const member of group.members) {
    if (length + member.text.length + 1 > room) break;
    taken.push(member);
    length += member.text.length + 1;
  }
  if (taken.length === 0) return undefined;
  return { text: braced(group.prefix, taken, group.suffix), count: taken.reduce((sum, m) => sum + m.count, 0) };
}

/** The values a compact list names (the inverse of compactValues, for checks). */
export function expandCompact(text: string): string[] {
  const out: string[] = [];
  const spaced = text.includes(SPACED_SEPARATOR);
  for (const token of text
    .replace(/…\+\d+ more/g, spaced ? SPACED_SEPARATOR : ' ')
    .split(spaced ? / \| (?![^{]*\})/ : / (?![^{]*\})/)) {
    if (!token) continue;
    const group = /^(.*?)\{(.*)\}(.*)$/.exec(token);
    if (group) {
      for (const member of group[2]!.split(','))
        for (const value of expandRange(member)) out.push(`${group[1]}${value}${group[3]}`);
    } else out.push(...expandRange(token));
  }
  return out;
}

function expandRange(token: string): string[] {
  const range = /^(\d+)\.\.(\d+)$/.exec(token);
  if (!range || Number(range[2]) - Number(range[1]) > 100_000) return [token];
  const out: string[] = [];
  for (let n = Number(range[1]); n <= Number(range[2]); n++) out.push(String(n));
  return out;
}
