/**
 * Completion in a spell file: the keys the schema allows where the cursor is (minus those already
 * written), a field's allowed values after `key:`, and the power's tool names under `hints`,
 * `annotations`, `prerequisites` and `next_actions`. Read from the text line by line, since a file
 * being typed is rarely valid YAML.
 */
import { fieldAt, keysAt, type SpellField } from './spell-fields.js';
import type { Position } from './yaml-ranges.js';

export interface SpellCompletion {
  label: string;
  kind: 'field' | 'value' | 'tool';
  detail?: string;
  documentation?: string;
  insertText: string;
}

interface KeyLine {
  indent: number;
  key: string;
}

const KEY_LINE = /^(\s*)(?:-\s+)?([A-Za-z0-9_.-]+)\s*:/;
const TOOL_MAPS = new Set(['hints', 'annotations']);
const TOOL_LISTS = new Set(['prerequisites', 'next_actions']);

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The keys enclosing a line of the given indentation, outermost first. */
function parentPath(lines: string[], lineIndex: number, indent: number): KeyLine[] {
  const parents: KeyLine[] = [];
  let limit = indent;
  for (let at = lineIndex - 1; at >= 0 && limit > 0; at--) {
    const line = lines[at];
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const lineIndent = indentOf(line);
    if (lineIndent >= limit) continue;
    const match = KEY_LINE.exec(line);
    if (!match) continue;
    parents.unshift({ indent: lineIndent, key: match[2] });
    limit = lineIndent;
  }
  return parents;
}

/** Keys already written at this level under the same parent. */
function siblingKeys(lines: string[], lineIndex: number, indent: number): Set<string> {
  const keys = new Set<string>();
  const scan = (step: 1 | -1) => {
    for (let at = lineIndex + step; at >= 0 && at < lines.length; at += step) {
      const line = lines[at];
      if (!line.trim() || line.trimStart().startsWith('#')) continue;
      const lineIndent = indentOf(line);
      if (lineIndent < indent) break;
      const match = lineIndent === indent ? KEY_LINE.exec(line) : null;
      if (match) keys.add(match[2]);
    }
  };
  scan(-1);
  scan(1);
  return keys;
}

function fieldDetail(field: SpellField): string {
  const values = field.values.length ? `: ${field.values.join(' | ')}` : '';
  return `${field.required ? 'required' : 'optional'} ${field.shape}${values}`;
}

function keyInsert(field: SpellField, indent: number): string {
  if (field.shape === 'mapping') return `${field.key}:\n${' '.repeat(indent + 2)}`;
  if (field.shape === 'list') return `${field.key}: [`;
  if (field.key === 'steering') return `${field.key}: |\n${' '.repeat(indent + 2)}`;
  return `${field.key}: `;
}

export function completeSpell(text: string, position: Position, tools: readonly string[] = []): SpellCompletion[] {
  const lines = text.split('\n');
  const line = lines[position.line] ?? '';
  const before = line.slice(0, position.character);
  const indent = indentOf(line);
  const parents = parentPath(lines, position.line, indent).map((parent) => parent.key);

  const listItem = /^\s*-\s+([\w-]*)$/.exec(before);
  if (listItem && TOOL_LISTS.has(parents.at(-1) ?? ''))
    return tools.map((tool) => ({ label: tool, kind: 'tool', detail: 'a tool of this power', insertText: tool }));

  const value = /^\s*(?:-\s+)?([A-Za-z0-9_-]+)\s*:\s*([\w-]*)$/.exec(before);
  if (value) {
    const field = fieldAt([...parents, value[1]]);
    return (field?.values ?? []).map((option) => ({
      label: option,
      kind: 'value',
      detail: `${value[1]}`,
      documentation: field?.description,
      insertText: option,
    }));
  }

  if (!/^\s*[\w-]*$/.test(before)) return [];
  if (TOOL_MAPS.has(parents.at(-1) ?? '') && parents.length === 1) {
    const written = siblingKeys(lines, position.line, indent);
    return tools
      .filter((tool) => !written.has(tool))
      .map((tool) => ({
        label: tool,
        kind: 'tool',
        detail: `${parents[0]} for this tool`,
        insertText: `${tool}:\n${' '.repeat(indent + 2)}`,
      }));
  }
  const keys = keysAt(parents);
  if (!keys) return [];
  const written = siblingKeys(lines, position.line, indent);
  return keys
    .filter((field) => !written.has(field.key))
    .map((field) => ({
      label: field.key,
      kind: 'field',
      detail: fieldDetail(field),
      documentation: field.description,
      insertText: keyInsert(field, indent),
    }));
}
