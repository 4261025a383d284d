/**
 * Where things are in a spell file's text: the key and value of a field path, and the field path at
 * a position. Built on the `yaml` package's Document (node ranges are offsets into the text).
 * Lines and columns are 0-based here, as in LSP; the CLI adds 1.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Pair } from 'yaml';
import type { SpellPath } from './spell-fields.js';

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface SpellText {
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

export function parseSpellText(text: string): SpellText {
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines, keepSourceTokens: false });
  return { text, doc, lines };
}

export function positionAt(spell: SpellText, offset: number): Position {
  const { line, col } = spell.lines.linePos(Math.max(0, Math.min(offset, spell.text.length)));
  return { line: line - 1, character: col - 1 };
}

export function offsetAt(text: string, position: Position): number {
  let offset = 0;
  for (let line = 0; line < position.line; line++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  const lineEnd = text.indexOf('\n', offset);
  return Math.min(offset + position.character, lineEnd < 0 ? text.length : lineEnd);
}

export function rangeOf(spell: SpellText, start: number, end: number): Range {
  return { start: positionAt(spell, start), end: positionAt(spell, Math.max(start, end)) };
}

function nodeRange(spell: SpellText, node: Node | null | undefined): Range | undefined {
  if (!node?.range) return undefined;
  return rangeOf(spell, node.range[0], node.range[1]);
}

function keyText(pair: Pair): string | undefined {
  return isScalar(pair.key) ? String(pair.key.value) : undefined;
}

export interface Located {
  /** The key of the deepest pair found on the way (the field itself when it exists). */
  key?: Range;
  /** The field's value, when the field exists and has one. */
  value?: Range;
  /** How many segments of the path exist in the text. */
  depth: number;
}

/** Finds a field path's key and value. A missing field is located by its deepest existing parent. */
export function locate(spell: SpellText, path: SpellPath): Located {
  let node: unknown = spell.doc.contents;
  let located: Located = { depth: 0 };
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => keyText(item) === String(segment));
      if (!pair) return located;
      located = {
        key: nodeRange(spell, pair.key as Node),
        value: nodeRange(spell, pair.value as Node),
        depth: located.depth + 1,
      };
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && node.items[segment]) {
      const item = node.items[segment] as Node;
      located = { key: located.key, value: nodeRange(spell, item), depth: located.depth + 1 };
      node = item;
    } else {
      return located;
    }
  }
  return located;
}

/** The range of the whole line a position is on (for problems that belong to no field). */
export function lineRange(spell: SpellText, line: number): Range {
  const start = offsetAt(spell.text, { line, character: 0 });
  const end = spell.text.indexOf('\n', start);
  return rangeOf(spell, start, end < 0 ? spell.text.length : end);
}

export interface PathAtOffset {
  /** The path of the field whose key or value holds the offset. */
  path: Array<string | number>;
  /** On the key itself (hover shows the field), or in its value. */
  onKey: boolean;
}

/** The field under an offset: the innermost pair whose key or value spans it. */
export function pathAt(spell: SpellText, offset: number): PathAtOffset | undefined {
  let found: PathAtOffset | undefined;
  const visit = (node: unknown, path: Array<string | number>): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = keyText(pair);
        if (key === undefined) continue;
        const keyNode = pair.key as Node;
        const valueNode = pair.value as Node | null;
        const inKey = !!keyNode.range && offset >= keyNode.range[0] && offset <= keyNode.range[1];
        const inValue = !!valueNode?.range && offset >= valueNode.range[0] && offset <= valueNode.range[1];
        if (inKey || inValue) {
          found = { path: [...path, key], onKey: inKey };
          if (inValue) visit(valueNode, [...path, key]);
        }
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => {
        const range = (item as Node | null)?.range;
        if (range && offset >= range[0] && offset <= range[1]) {
          found = { path: [...path, index], onKey: false };
          visit(item, [...path, index]);
        }
      });
    }
  };
  visit(spell.doc.contents, []);
  return found;
}
