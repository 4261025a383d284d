/** Source files: language, size, imports, the symbols declared (kept as identifiers), TODOs. */
import { clip, joinWithin, plural } from './format.js';
import type { Findings } from './findings.js';

const EXTENSIONS: Record<string, string> = {
  ts: 'TypeScript',
  tsx: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  js: 'JavaScript',
  jsx: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  py: 'Python',
  go: 'Go',
  rs: 'Rust',
  java: 'Java',
  kt: 'Kotlin',
  cs: 'C#',
  c: 'C',
  h: 'C',
  cpp: 'C++',
  hpp: 'C++',
  cc: 'C++',
  rb: 'Ruby',
  php: 'PHP',
  swift: 'Swift',
  scala: 'Scala',
  sh: 'Shell',
  bash: 'Shell',
  sql: 'SQL',
  css: 'CSS',
  scss: 'SCSS',
  yaml: 'YAML',
  yml: 'YAML',
  toml: 'TOML',
  lua: 'Lua',
};

const DECLARATIONS: RegExp[] = [
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+([A-Za-z_$][\w$]*)/,
  /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
  /^\s*(?:export\s+)?(?:interface|type|enum)\s+([A-Za-z_$][\w$]*)/,
  /^\s*export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)/,
  /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/,
  /^\s*class\s+([A-Za-z_]\w*)\s*[(:]/,
  /^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/,
  /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:fn|struct|enum|trait|impl|mod)\s+([A-Za-z_]\w*)/,
  /^\s*(?:public|private|protected|internal|static|\s)*(?:[\w<>[\],\s]+)\s+([A-Za-z_]\w*)\s*\([^;]*\)\s*\{?\s*$/,
];
const IMPORT =
  /^\s*(?:import\s.*?from\s+['"]([^'"]+)['"]|import\s+['"]([^'"]+)['"]|(?:const|let|var)\s+.*?=\s*require\(['"]([^'"]+)['"]\)|from\s+([\w.]+)\s+import|import\s+([\w.]+)|use\s+([\w:]+)|#include\s+[<"]([^>"]+)[>"])/;

export function languageOf(path: string | undefined, text: string): string | undefined {
  const ext = path ? /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() : undefined;
  if (ext && EXTENSIONS[ext]) return EXTENSIONS[ext];
  const lines = text.split('\n', 200);
  const codeish = lines.filter((l) =>
    /[;{}]\s*$|^\s*(import|export|def|class|func|fn|const|let|var|return|if|for)\b/.test(l),
  ).length;
  return codeish >= Math.max(5, lines.length * 0.3) ? 'code' : undefined;
}

export function summarizeCode(lines: string[], language: string, path: string | undefined, out: Findings): void {
  const symbols: string[] = [];
  const imports: string[] = [];
  const todos: Array<{ line: number; text: string }> = [];
  lines.forEach((line, index) => {
    if (line.length > 400) return;
    for (const pattern of DECLARATIONS) {
      const match = pattern.exec(line);
      if (match?.[1] && !/^(if|for|while|switch|return|catch|function|new|else)$/.test(match[1])) {
        symbols.push(match[1]);
        break;
      }
    }
    const imported = IMPORT.exec(line);
    if (imported) imports.push(imported.slice(1).find(Boolean)!);
    const todo = /\b(TODO|FIXME|HACK|XXX|BUG)\b/.exec(line);
    if (todo) todos.push({ line: index + 1, text: line.slice(todo.index).trim() });
  });
  const blank = lines.filter((l) => !l.trim()).length;
  out.finding(
    `${language === 'code' ? 'Source file' : `${language} file`}${path ? ` ${path}` : ''}: ` +
      `${plural(lines.length, 'line')} (${plural(lines.length - blank, 'non-blank')}), ` +
      `${plural(symbols.length, 'declaration')}, ${plural(imports.length, 'import')}.`,
  );
  const docComment = lines
    .slice(0, 30)
    .join('\n')
    .match(/\/\*\*([\s\S]*?)\*\/|^"""([\s\S]*?)"""|^(?:\/\/|#)\s*(.+)/m);
  const doc = docComment?.slice(1).find(Boolean);
  if (doc) out.finding(`Header: ${clip(doc.replace(/^\s*\*\s?/gm, ' '), 200)}`);
  if (symbols.length > 0) out.finding(`Declares: ${joinWithin(symbols, 240)}.`);
  if (imports.length > 0) out.finding(`Imports: ${joinWithin([...new Set(imports)], 200)}.`);
  if (todos.length > 0) {
    out.finding(
      `${plural(todos.length, 'TODO/FIXME note')}: ${todos
        .slice(0, 3)
        .map((t) => `line ${t.line}: ${clip(t.text, 60)}`)
        .join('; ')}.`,
    );
    out.insight(`Open notes in the code, first at line ${todos[0]!.line}: ${clip(todos[0]!.text, 100)}.`);
  }
  out.identifiers('symbols', symbols, 1);
  if (imports.length) out.identifiers('imports', [...new Set(imports)], 3);
}
