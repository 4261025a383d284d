/**
 * The spell checker behind the editor's diagnostics and `grimoire spells check`: the loader's
 * problems (server/powers/spell-loader.ts) placed at their line and column, plus what only a
 * whole-workspace view can tell: unknown keys at every level, a name another file already uses,
 * hints naming tools the power does not have, a command that is not on PATH.
 */
import * as path from 'node:path';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { commandExists, lookupFor } from '../util/command-lookup.js';
import {
  commandNotFoundText,
  editDistance,
  parseSpell,
  unknownKey,
  type SpellLoadContext,
} from '../powers/spell-loader.js';
import { isPlaceholderDescription, isPlaceholderSteering, PLACEHOLDER_KEYWORDS } from '../../shared/placeholders.js';
import { suggestKeywords } from './keyword-suggestions.js';
import type { SpellExtensions } from '../powers/spell-schema.js';
import type { LoadIssue, PowerDefinition } from '../powers/types.js';
import { powerNameFrom } from '../../shared/power-name.js';
import { keysAt, type SpellPath } from './spell-fields.js';
import { lineRange, locate, parseSpellText, rangeOf, type Range, type SpellText } from './yaml-ranges.js';
import { unclosedBracket } from '../powers/yaml-limits.js';

export type Severity = 'error' | 'warning';

export type ProblemCode =
  | 'yaml'
  | 'schema'
  | 'unknown-key'
  | 'file-name'
  | 'duplicate-name'
  | 'unknown-tool'
  | 'command-not-found'
  | 'unset-variable'
  | 'placeholder';

/** A text edit that fixes a problem mechanically. */
export interface QuickFix {
  title: string;
  range: Range;
  newText: string;
}

export interface SpellProblem {
  range: Range;
  severity: Severity;
  code: ProblemCode;
  /** Dotted field path, '' for the whole file. */
  field: string;
  message: string;
  fix: string;
  quickFix?: QuickFix;
}

export interface SpellCheckContext extends SpellLoadContext {
  /** Powers defined by other files (spells, imported configs): a second definition of a name is ignored. */
  otherPowers?: ReadonlyArray<{ name: string; file: string }>;
  /** The tools a power is known to have (from the catalog); undefined or empty when never listed. */
  toolsOf?: (power: string) => readonly string[] | undefined;
  /** PATH to look commands up on (default: this process's). */
  pathEnv?: string;
}

export interface SpellCheck {
  problems: SpellProblem[];
  /** The power the file defines, when it loads. */
  power?: PowerDefinition;
}

export function checkSpell(text: string, file: string, ctx: SpellCheckContext): SpellCheck {
  const spell = parseSpellText(text);
  const loaded = parseSpell(text, file, ctx);
  const severity: Severity = loaded.power ? 'warning' : 'error';
  const problems: SpellProblem[] = [];
  if (spell.doc.errors.length > 0) {
    problems.push(...loaded.issues.map((issue, index) => yamlProblem(spell, issue, index)));
    return { problems: sorted(problems) };
  }
  // Unknown keys are found at every level below, each with a quick fix; the loader's own (top level, server) would repeat them.
  for (const issue of loaded.issues)
    if (!issue.message.startsWith('unknown key "'))
      problems.push(placeIssue(spell, issue, issue.severity ?? severity, file));
  problems.push(...unknownKeyProblems(spell));
  problems.push(...placeholderProblems(spell));
  if (loaded.power) problems.push(...powerProblems(spell, loaded.power, loaded.extensions, ctx));
  return { problems: sorted(problems), power: loaded.power };
}

function sorted(problems: SpellProblem[]): SpellProblem[] {
  return problems.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

function problem(
  range: Range,
  severity: Severity,
  code: ProblemCode,
  issue: Pick<LoadIssue, 'field' | 'message' | 'fix'>,
  quickFix?: QuickFix,
): SpellProblem {
  return {
    range,
    severity,
    code,
    field: issue.field,
    message: issue.message,
    fix: issue.fix,
    ...(quickFix ? { quickFix } : {}),
  };
}

/** The loader reports YAML errors in the parser's order; the parser's own positions place them. */
function yamlProblem(spell: SpellText, issue: LoadIssue, index: number): SpellProblem {
  const error = spell.doc.errors[index];
  const located = issue as LoadIssue & { line?: number; column?: number };
  let range: Range;
  if (error) {
    const opener = /end with an? ([\]}])/.test(error.message) ? unclosedBracket(spell.text, error.pos[0]) : undefined;
    if (opener !== undefined) {
      const bracket = spell.text[opener];
      const close = bracket === '[' ? ']' : '}';
      return problem(rangeOf(spell, opener, opener + 1), 'error', 'yaml', {
        field: '',
        message: `YAML syntax error: this "${bracket}" is never closed`,
        fix: `close it with "${close}"`,
      });
    }
    range = rangeOf(spell, error.pos[0], error.pos[1]);
  } else if (typeof located.line === 'number') range = lineRange(spell, located.line - 1);
  else range = lineRange(spell, 0);
  return problem(range, 'error', 'yaml', { ...issue, message: issue.message.replace(/ at line \d+, column \d+/, '') });
}

export function pathOf(field: string): SpellPath {
  return field ? field.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment)) : [];
}

/** The start of the text's first key, for problems about the whole file or a missing top-level field. */
function firstKeyRange(spell: SpellText): Range {
  const contents = spell.doc.contents;
  if (isMap(contents) && contents.items[0]?.key) {
    const key = contents.items[0].key as Node;
    if (key.range) return rangeOf(spell, key.range[0], key.range[1]);
  }
  return lineRange(spell, 0);
}

function placeIssue(spell: SpellText, issue: LoadIssue, severity: Severity, file: string): SpellProblem {
  const fieldPath = pathOf(issue.field);
  const located = locate(spell, fieldPath);
  const exists = fieldPath.length > 0 && located.depth === fieldPath.length;
  const parentKeys = keysAt(fieldPath.slice(0, -1));
  const last = fieldPath[fieldPath.length - 1];
  const isUnknownKey =
    exists && typeof last === 'string' && !!parentKeys && !parentKeys.some((key) => key.key === last);
  if (isUnknownKey) {
    const rename = /did you mean "([^"]+)"/.exec(issue.message)?.[1];
    const range = located.key!;
    return problem(
      range,
      'warning',
      'unknown-key',
      issue,
      rename ? { title: `Rename to "${rename}"`, range, newText: rename } : undefined,
    );
  }
  if (!exists) {
    const range = located.key ?? firstKeyRange(spell);
    return problem(range, severity, 'schema', issue, issue.field === 'version' ? addVersion(spell) : undefined);
  }
  const range = located.value ?? located.key!;
  if (issue.field === 'name') return nameProblem(spell, issue, range, severity, file);
  if (issue.field === 'server.command' && issue.severity === 'warning')
    return problem(range, 'warning', 'command-not-found', issue);
  if (issue.field === 'keywords') return problem(range, severity, 'schema', issue, keywordsFix(spell, range));
  if (/(^|\.)ttlSeconds$/.test(issue.field))
    return problem(range, severity, 'schema', issue, { title: 'Set ttlSeconds: 60', range, newText: '60' });
  return problem(range, severity, 'schema', issue);
}

/** Too few keywords (or none): the list filled to at least 3 from the name and description; too many: the first 20 kept. */
function keywordsFix(spell: SpellText, range: Range | undefined): QuickFix | undefined {
  const node = spell.doc.get('keywords', true);
  const given = isSeq(node) ? node.items.map((item) => (isScalar(item) ? String(item.value) : '')).filter(Boolean) : [];
  if (given.length > 20)
    return (
      range && {
        title: 'Keep the first 20 keywords',
        range,
        newText: `[${given
          .slice(0, 20)
          .map((word) => JSON.stringify(word))
          .join(', ')}]`,
      }
    );
  const name = scalarAt(spell, ['name']) ?? '';
  const description = scalarAt(spell, ['description']) ?? '';
  const words = suggestKeywords({ name, description, existing: given }, Math.max(3, given.length + 1));
  if (words.length < 3) return undefined;
  const list = `[${words.map((word) => JSON.stringify(word)).join(', ')}]`;
  if (range) return { title: `Set keywords to ${list}`, range, newText: list };
  const at = { line: (locate(spell, ['description']).value?.end.line ?? 0) + 1, character: 0 };
  return { title: `Add keywords: ${list}`, range: { start: at, end: at }, newText: `keywords: ${list}\n` };
}

/** The template's and the importer's placeholders, left as they were written. */
function placeholderProblems(spell: SpellText): SpellProblem[] {
  const found: SpellProblem[] = [];
  const description = scalarAt(spell, ['description']);
  if (description !== undefined && isPlaceholderDescription(description)) {
    const at = locate(spell, ['description']);
    found.push(
      problem(at.value ?? at.key ?? firstKeyRange(spell), 'warning', 'placeholder', {
        field: 'description',
        message: 'the description is still the placeholder: intent resolution matches requests against it',
        fix: 'say in one sentence what this power does, in the words a user would use',
      }),
    );
  }
  const steering = scalarAt(spell, ['steering']);
  if (steering !== undefined && isPlaceholderSteering(steering)) {
    const at = locate(spell, ['steering']);
    found.push(
      problem(at.value ?? at.key ?? firstKeyRange(spell), 'warning', 'placeholder', {
        field: 'steering',
        message: 'the steering is still the placeholder: it is not sent to the agent until you write your own',
        fix: 'write what the agent should know with every tool of this power, or delete steering',
      }),
    );
  }
  const keywords = spell.doc.get('keywords', true);
  if (isSeq(keywords)) {
    keywords.items.forEach((item, index) => {
      if (!isScalar(item) || !PLACEHOLDER_KEYWORDS.includes(String(item.value))) return;
      const at = locate(spell, ['keywords', index]);
      if (at.value)
        found.push(
          problem(at.value, 'warning', 'placeholder', {
            field: `keywords.${index}`,
            message: `"${String(item.value)}" is the template's placeholder keyword`,
            fix: 'replace it with a word a user might say when they need this power',
          }),
        );
    });
  }
  return found;
}

function scalarAt(spell: SpellText, fieldPath: SpellPath): string | undefined {
  const node = spell.doc.getIn(fieldPath, true);
  return isScalar(node) && node.value !== null && node.value !== undefined ? String(node.value) : undefined;
}

/** A bad name is lower-cased; a name that differs from the file name is set to it. */
function nameProblem(spell: SpellText, issue: LoadIssue, range: Range, severity: Severity, file: string): SpellProblem {
  const name = scalarAt(spell, ['name']) ?? '';
  const stem = path.basename(file).replace(/\.spell\.ya?ml$/, '');
  if (issue.message.startsWith('the file is named')) {
    const quickFix =
      stem !== path.basename(file) && powerNameFrom(stem) === stem
        ? { title: `Set name: to "${stem}"`, range, newText: stem }
        : undefined;
    return problem(range, 'warning', 'file-name', issue, quickFix);
  }
  const fixed = powerNameFrom(name);
  const quickFix =
    name && fixed !== name ? { title: `Change the name to "${fixed}"`, range, newText: fixed } : undefined;
  return problem(range, severity, 'schema', issue, quickFix);
}

/** `version: 1.0.0` on the line after `name:` (or first). */
function addVersion(spell: SpellText): QuickFix {
  const name = locate(spell, ['name']);
  const line = name.value ? name.value.end.line + 1 : 0;
  const at = { line, character: 0 };
  return { title: 'Add version: 1.0.0', range: { start: at, end: at }, newText: 'version: 1.0.0\n' };
}

/** Keys the schema does not know, at every level with fixed keys (the loader checks the top level and `server`). */
function unknownKeyProblems(spell: SpellText): SpellProblem[] {
  const found: SpellProblem[] = [];
  const visit = (node: unknown, at: SpellPath): void => {
    if (isMap(node)) {
      const known = keysAt(at)?.map((key) => key.key);
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        const field = [...at, key].join('.');
        if (known && !known.includes(key)) {
          const issue = unknownKey(field, key, known, (f, message, fix) => ({ file: '', field: f, message, fix }));
          const keyNode = pair.key as Node;
          const range = rangeOf(spell, keyNode.range![0], keyNode.range![1]);
          const rename = /did you mean "([^"]+)"/.exec(issue.message)?.[1];
          found.push(
            problem(
              range,
              'warning',
              'unknown-key',
              issue,
              rename
                ? { title: `Rename to "${rename}"`, range, newText: rename }
                : removePair(spell, key, keyNode, pair.value as Node | null),
            ),
          );
        } else {
          visit(pair.value, [...at, key]);
        }
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => visit(item, [...at, index]));
    }
  };
  visit(spell.doc.contents, []);
  return found;
}

/** Deletes a key with its value: its whole lines when it starts its line, else (in a flow mapping) the key and value alone. */
function removePair(spell: SpellText, key: string, keyNode: Node, value: Node | null): QuickFix {
  const title = `Remove "${key}"`;
  const from = keyNode.range![0];
  const to = value?.range ? value.range[1] : keyNode.range![1];
  const lineStart = spell.text.lastIndexOf('\n', from - 1) + 1;
  if (spell.text.slice(lineStart, from).trim() !== '') return { title, range: rangeOf(spell, from, to), newText: '' };
  const newline = spell.text.indexOf('\n', Math.max(to - 1, from));
  return { title, range: rangeOf(spell, lineStart, newline < 0 ? spell.text.length : newline + 1), newText: '' };
}

function powerProblems(
  spell: SpellText,
  power: PowerDefinition,
  extensions: SpellExtensions | undefined,
  ctx: SpellCheckContext,
): SpellProblem[] {
  const found: SpellProblem[] = [];
  const self = path.resolve(power.source.file);
  const twin = ctx.otherPowers?.find((other) => other.name === power.name && path.resolve(other.file) !== self);
  if (twin) {
    const at = locate(spell, ['name']);
    found.push(
      problem(at.value ?? at.key ?? firstKeyRange(spell), 'error', 'duplicate-name', {
        field: 'name',
        message: `another power is named "${power.name}" (in ${twin.file}): only one of them is loaded`,
        fix: 'give this power a name of its own',
      }),
    );
  }
  for (const variable of power.problems) {
    const field = /\(used in ([\w.-]+)\)/.exec(variable)?.[1] ?? 'server';
    const at = locate(spell, pathOf(field));
    const message = variable.replace(/: set it in the environment.*$/, '');
    found.push(
      problem(at.value ?? at.key ?? firstKeyRange(spell), 'warning', 'unset-variable', {
        field,
        message,
        fix: 'set the variable in the environment VS Code (or the gateway) starts from, or write the value in the spell',
      }),
    );
  }
  if (
    power.server.transport === 'stdio' &&
    power.problems.length === 0 &&
    !commandExists(
      power.server.command,
      ctx.pathEnv === undefined
        ? lookupFor(power.server.env, power.server.cwd)
        : { ...lookupFor(power.server.env, power.server.cwd), pathEnv: ctx.pathEnv },
    )
  ) {
    const at = locate(spell, ['server', 'command']);
    found.push(
      problem(at.value ?? at.key ?? firstKeyRange(spell), 'warning', 'command-not-found', {
        field: 'server.command',
        ...commandNotFoundText(power.server.command),
      }),
    );
  }
  found.push(...toolProblems(spell, power.name, extensions, ctx.toolsOf?.(power.name)));
  return found;
}

/** Hints and annotations that name tools the power does not have (only once its tools are known). */
function toolProblems(
  spell: SpellText,
  powerName: string,
  extensions: SpellExtensions | undefined,
  tools: readonly string[] | undefined,
): SpellProblem[] {
  if (!tools || tools.length === 0 || !extensions) return [];
  const found: SpellProblem[] = [];
  const check = (tool: string, fieldPath: SpellPath, onKey: boolean) => {
    if (tools.includes(tool)) return;
    const at = locate(spell, fieldPath);
    const range = onKey ? at.key : at.value;
    if (!range) return;
    const near = tools.find((candidate) => editDistance(candidate, tool) <= 2);
    const list = tools.length > 8 ? `${tools.slice(0, 8).join(', ')}, ...` : tools.join(', ');
    found.push(
      problem(
        range,
        'warning',
        'unknown-tool',
        {
          field: fieldPath.join('.'),
          message: `"${tool}" is not a tool of ${powerName}${near ? ` (did you mean "${near}"?)` : ''}`,
          fix: near ? `rename it to "${near}"` : `use one of its tools: ${list}`,
        },
        near ? { title: `Rename to "${near}"`, range, newText: near } : undefined,
      ),
    );
  };
  for (const [tool, hints] of Object.entries(extensions.hints ?? {})) {
    check(tool, ['hints', tool], true);
    (hints.prerequisites ?? []).forEach((name, index) => check(name, ['hints', tool, 'prerequisites', index], false));
    (hints.next_actions ?? []).forEach((name, index) => check(name, ['hints', tool, 'next_actions', index], false));
  }
  for (const tool of Object.keys(extensions.annotations ?? {})) check(tool, ['annotations', tool], true);
  return found;
}

/** `file:line:col: severity: message (fix: ...)`, 1-based as compilers print it. */
export function formatProblem(file: string, problem: SpellProblem): string {
  return (
    `${file}:${problem.range.start.line + 1}:${problem.range.start.character + 1}: ${problem.severity}: ` +
    `${problem.message} (fix: ${problem.fix})`
  );
}
