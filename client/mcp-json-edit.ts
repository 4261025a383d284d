/**
 * The two text edits of routing, on an mcp.json's own bytes: take one server entry out, and put
 * its own text back where it was. Nothing else in the file changes: comments (even the one above
 * the next entry), blank lines, indentation, line endings, a byte order mark, trailing commas and
 * the order of the other entries stay as they are. No `vscode` import.
 */
import { parseTree, type Node } from 'jsonc-parser';

/** What the removal took out, enough to put the entry back at its place once the file changed around it. */
export interface RemovedEntry {
  /** `"key": value` exactly as it was written (comments inside the value included). */
  propertyText: string;
  /** The whitespace before the entry on its line ("" when the entry shared a line with something else). */
  indent: string;
  /**
   * Whole comment lines between the entry before it (or the opening brace) and the entry: they stay in the
   * file, the entry goes back after them.
   */
  leading?: string;
  /** What followed the entry (and its comma) on its line, a `// comment`: it leaves and comes back with the entry. */
  trailing?: string;
  /** The key of the entry before it in `servers`, when there was one. */
  previousKey?: string;
}

export type RemoveResult = { ok: true; text: string; removed: RemovedEntry } | { ok: false; message: string };

const BOM = '\uFEFF';

/** The `servers` (VS Code) or `mcpServers` (Claude-style) object of the file, with the text offset of the parse. */
function serversOf(text: string): { root: Node; servers: Node; base: number } | undefined {
  const base = text.startsWith(BOM) ? 1 : 0;
  const root = parseTree(text.slice(base), [], { allowTrailingComma: true, disallowComments: false });
  if (!root || root.type !== 'object') return undefined;
  const property =
    root.children?.find((p) => p.children?.[0]?.value === 'servers' && p.children[1]?.type === 'object') ??
    root.children?.find((p) => p.children?.[0]?.value === 'mcpServers' && p.children[1]?.type === 'object');
  const servers = property?.children?.[1];
  return servers ? { root, servers, base } : undefined;
}

function keyOf(property: Node): string {
  return String(property.children?.[0]?.value);
}

/** The offset of the first `,` after `from` that is not inside a comment, before `limit`; -1 when none. */
function commaBetween(text: string, from: number, limit: number): number {
  let i = from;
  while (i < limit) {
    if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? limit : end;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? limit : end + 2;
    } else if (text[i] === ',') return i;
    else if (/\s/.test(text[i]!)) i += 1;
    else return -1;
  }
  return -1;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset just past the line break that ends the line `offset` is on, when only blanks (or a // comment) follow; else `offset`. */
function throughLineEnd(text: string, offset: number): number {
  const rest = /^[ \t]*(\/\/[^\n]*)?(\r?\n)/.exec(text.slice(offset));
  return rest ? offset + rest[0].length : offset;
}

/** Takes the entry `key` out of the servers object; `text` is the whole file as read. */
export function removeEntry(text: string, key: string): RemoveResult {
  const found = serversOf(text);
  if (!found) return { ok: false, message: 'the file has no "servers" object' };
  const { servers, base } = found;
  const siblings = servers.children ?? [];
  const index = siblings.findIndex((p) => keyOf(p) === key);
  if (index < 0) return { ok: false, message: `the file has no server "${key}"` };
  const body = text.slice(base);
  const property = siblings[index]!;
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  const start = property.offset;
  const end = property.offset + property.length;
  const onOwnLine = body.slice(lineStart(body, start), start).trim() === '';
  const indent = onOwnLine ? body.slice(lineStart(body, start), start) : '';
  const comma = commaBetween(body, end, next ? next.offset : servers.offset + servers.length - 1);
  const cuts: Array<[number, number]> = [];
  if (comma >= 0) {
    // Its own comma goes with it (a trailing comma, when it was last, too).
    cuts.push(
      onOwnLine ? [lineStart(body, start), throughLineEnd(body, comma + 1)] : [start, skipBlanks(body, comma + 1)],
    );
  } else if (previous) {
    // The last entry: the comma before it goes, so that the one before becomes the last.
    const before = commaBetween(body, previous.offset + previous.length, start);
    if (before >= 0) cuts.push([before, before + 1]);
    cuts.push(
      onOwnLine ? [lineStart(body, start), throughLineEnd(body, end)] : [before >= 0 ? before + 1 : start, end],
    );
  } else {
    cuts.push(onOwnLine ? [lineStart(body, start), throughLineEnd(body, end)] : [start, end]);
  }
  let out = body;
  for (const [from, to] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, from) + out.slice(to);
  let leading = '';
  let trailing = '';
  if (onOwnLine) {
    const afterEntry = comma >= 0 ? comma + 1 : end;
    trailing = body.slice(afterEntry, throughLineEnd(body, afterEntry)).replace(/\r?\n$/, '');
    const before = previous ? commaBetween(body, previous.offset + previous.length, start) : -1;
    const anchor = throughLineEnd(
      body,
      previous ? (before >= 0 ? before + 1 : previous.offset + previous.length) : servers.offset + 1,
    );
    if (body[anchor - 1] === '\n' && anchor <= lineStart(body, start))
      leading = body.slice(anchor, lineStart(body, start));
  }
  return {
    ok: true,
    text: text.slice(0, base) + out,
    removed: {
      propertyText: body.slice(start, end),
      indent,
      ...(leading ? { leading } : {}),
      ...(trailing ? { trailing } : {}),
      ...(previous ? { previousKey: keyOf(previous) } : {}),
    },
  };
}

function skipBlanks(text: string, offset: number): number {
  let i = offset;
  while (text[i] === ' ' || text[i] === '\t') i += 1;
  return i;
}

export type InsertResult = { ok: true; text: string } | { ok: false; message: string };

/**
 * Puts a removed entry's own text back: after the entry that preceded it, else first; on its own
 * line (after the comment lines that were above it, with its own indentation, trailing comment and
 * the file's line ending) when it had its own line. Each case is the inverse of its removal, so
 * that an unchanged neighbourhood comes back byte for byte.
 */
export function reinsertEntry(text: string, key: string, removed: RemovedEntry): InsertResult {
  const found = serversOf(text);
  if (!found) return { ok: false, message: 'the file has no "servers" object' };
  const { servers, base } = found;
  const body = text.slice(base);
  const siblings = servers.children ?? [];
  if (siblings.some((p) => keyOf(p) === key)) return { ok: false, message: `the file has a server "${key}" already` };
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const previous = siblings.find((p) => removed.previousKey !== undefined && keyOf(p) === removed.previousKey);
  const inserts: Array<[number, string]> = [];
  const line = (at: number, comma: boolean): void => {
    const leading = removed.leading && body.startsWith(removed.leading, at) ? removed.leading.length : 0;
    inserts.push([
      at + leading,
      `${removed.indent}${removed.propertyText}${comma ? ',' : ''}${removed.trailing ?? ''}${eol}`,
    ]);
  };
  if (previous) {
    const end = previous.offset + previous.length;
    const comma = commaBetween(body, end, servers.offset + servers.length - 1);
    const after = comma >= 0 ? comma + 1 : end;
    const lineEnd = throughLineEnd(body, after);
    if (removed.indent && lineEnd > after) {
      if (comma < 0) inserts.push([end, ',']);
      line(lineEnd, comma >= 0);
    } else inserts.push([after, comma >= 0 ? `${removed.propertyText},` : `,${removed.propertyText}`]);
  } else {
    const open = servers.offset + 1;
    const lineEnd = throughLineEnd(body, open);
    const more = siblings.length > 0;
    if (removed.indent && lineEnd > open) line(lineEnd, more);
    else inserts.push([open, `${removed.propertyText}${more ? ',' : ''}`]);
  }
  let out = body;
  for (const [at, insert] of inserts.sort((a, b) => b[0] - a[0])) out = out.slice(0, at) + insert + out.slice(at);
  return { ok: true, text: text.slice(0, base) + out };
}
