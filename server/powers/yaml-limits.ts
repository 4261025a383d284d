/**
 * YAML text to plain data, within limits a hostile file cannot get past: aliases may expand to at
 * most MAX_ALIAS_COUNT nodes (the yaml package's check against "billion laughs"), collections nest
 * at most MAX_DEPTH levels. Every problem comes back with its line and column.
 */
import { isAlias, isCollection, isPair, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { preview } from '../../shared/preview.js';

export const MAX_ALIAS_COUNT = 100;
export const MAX_DEPTH = 50;

export interface YamlProblem {
  line: number;
  column: number;
  message: string;
  fix: string;
}

export type YamlRead =
  | {
      ok: true;
      data: unknown;
      positionOf: (path: readonly PropertyKey[]) => { line: number; column: number } | undefined;
    }
  | { ok: false; problems: YamlProblem[] };

export function readYaml(text: string): YamlRead {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter });
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.slice(0, 3).map((error) => {
        const pos = at(error.pos[0]);
        const where = `line ${pos.line}, column ${pos.column}`;
        if (/call stack/i.test(error.message)) return tooDeep(pos);
        const opener = /end with an? ([\]}])/.test(error.message) ? unclosedBracket(text, error.pos[0]) : undefined;
        if (opener !== undefined) {
          const open = at(opener);
          const bracket = text[opener];
          return {
            ...open,
            message: `YAML syntax error at line ${open.line}, column ${open.column}: this "${bracket}" is never closed`,
            fix: `close it with "${bracket === '[' ? ']' : '}'}"`,
          };
        }
        return {
          ...pos,
          message: `YAML syntax error at ${where}: ${preview(error.message, 200)}`,
          fix: `fix the YAML at ${where}: check the indentation, a missing ":" or an unclosed quote`,
        };
      }),
    };
  }
  const deepest = deepestNode(doc);
  if (deepest.depth > MAX_DEPTH) return { ok: false, problems: [tooDeep(at(deepest.offset))] };
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const alias = firstAlias(doc);
    const pos = alias ? at(alias.range?.[0] ?? 0) : { line: 1, column: 1 };
    const message =
      error instanceof ReferenceError && /alias/i.test(error.message)
        ? `YAML aliases expand to more than ${MAX_ALIAS_COUNT} values (the first alias, ` +
          `*${alias?.source ?? '?'}, is at line ${pos.line}); the file was not read`
        : `the YAML could not be read: ${preview(error instanceof Error ? error.message : String(error), 200)}`;
    return {
      ok: false,
      problems: [{ ...pos, message, fix: 'write the repeated values out instead of referring to them with *name' }],
    };
  }
  return {
    ok: true,
    data,
    positionOf: (path) => {
      for (let n = path.length; n >= 0; n--) {
        const node = doc.getIn(path.slice(0, n) as unknown[], true) as Node | undefined;
        if (node && typeof node === 'object' && node.range) return at(node.range[0]);
      }
      return undefined;
    },
  };
}

/** Where the last bracket still open before `offset` was opened (the parser notices only later, at a line that is fine). */
export function unclosedBracket(text: string, offset: number): number | undefined {
  const open: number[] = [];
  let quote: string | undefined;
  for (let at = 0; at < offset; at++) {
    const char = text[at];
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '#' && (at === 0 || /\s/.test(text[at - 1]))) {
      const end = text.indexOf('\n', at);
      at = end < 0 ? offset : end;
    } else if (char === '[' || char === '{') {
      open.push(at);
    } else if ((char === ']' || char === '}') && open.length) {
      open.pop();
    }
  }
  return open.at(-1);
}

function tooDeep(pos: { line: number; column: number }): YamlProblem {
  return {
    ...pos,
    message: `the YAML nests more than ${MAX_DEPTH} levels deep (at line ${pos.line}); the file was not read`,
    fix: 'a spell needs only a few levels: remove the nested lists or mappings',
  };
}

/** Iterative, so that the walk itself cannot overflow the stack. */
function deepestNode(doc: Document): { depth: number; offset: number } {
  let best = { depth: 0, offset: 0 };
  const stack: { node: unknown; depth: number }[] = [{ node: doc.contents, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (isPair(node)) {
      stack.push({ node: node.key, depth }, { node: node.value, depth });
    } else if (isCollection(node)) {
      if (depth + 1 > best.depth) best = { depth: depth + 1, offset: node.range?.[0] ?? 0 };
      if (best.depth > MAX_DEPTH) return best;
      for (const item of node.items) stack.push({ node: item, depth: depth + 1 });
    }
  }
  return best;
}

function firstAlias(doc: Document): { source: string; range?: [number, number, number] } | undefined {
  let found: { source: string; range?: [number, number, number] } | undefined;
  visit(doc, {
    Alias(_, node) {
      if (isAlias(node)) found = { source: node.source, range: node.range ?? undefined };
      return visit.BREAK;
    },
  });
  return found;
}
