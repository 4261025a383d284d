// The repository's import graph, read with TypeScript's own parser (tools/lint/'s TypeScript 6: the
// project's TypeScript 7 has no JavaScript API). Every import form counts: static imports,
// `export ... from`, `import x = require()`, dynamic `import()`, `require()` and `import('...')`
// types. An import written `import type` / `export type`, or an `import('...')` type, is marked as
// types only: it is erased at compile time and loads nothing.
import * as fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ts = createRequire(path.join(here, 'package.json'))('typescript');

/** The folders read: the layered sources, the tests and the tools (the last two for the package rules only). */
export const FOLDERS = ['protocol', 'shared', 'server', 'client', 'webview', 'test', 'tools'];

const BUILTINS = new Set(builtinModules);

/** Whether tools/lint/'s TypeScript (with its JavaScript API) is installed: `npm run lint` installs it. */
export const parserInstalled = typeof ts.createSourceFile === 'function';

/**
 * The imports of one source text, in order: { specifier, type } where `type` is true for an import
 * of types only.
 */
export function importsOf(fileName, text) {
  if (!parserInstalled) throw new Error("tools/lint/'s TypeScript is not installed: run `npm run lint` once");
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found = [];
  const add = (literal, type) => {
    if (literal && ts.isStringLiteralLike(literal)) found.push({ specifier: literal.text, type });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly === true);
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.arguments.length >= 1) {
      const callee = node.expression;
      const loads =
        callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
      if (loads) add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The package a bare specifier names (`@scope/name` or `name`); undefined for Node's own modules. */
export function packageOf(specifier) {
  if (specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0])) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function sources(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(file);
    return /\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** The file a relative specifier names: `./x.js` is `./x.ts` in the sources. */
function resolveSpecifier(from, specifier) {
  const target = path.resolve(path.dirname(from), specifier);
  for (const candidate of [
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.mjs$/, '.mts'),
    target,
    `${target}.ts`,
    path.join(target, 'index.ts'),
  ]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * The sources under `root`'s FOLDERS, each with its imports (Map: file -> imports, paths from `root`
 * with '/'). An import is { file } for a relative one (a specifier naming no file is left out) or
 * { package } for a bare one (Node's own modules are left out), with `type: true` when it imports
 * types only. An import made twice is listed once, as loading code if either one does.
 */
export function importGraph(root) {
  const relative = (file) => path.relative(root, file).split(path.sep).join('/');
  const graph = new Map();
  for (const file of FOLDERS.flatMap((folder) => sources(path.join(root, folder)))) {
    const imports = new Map();
    for (const { specifier, type } of importsOf(file, fs.readFileSync(file, 'utf8'))) {
      let edge;
      if (specifier.startsWith('.')) {
        const target = resolveSpecifier(file, specifier);
        if (target !== undefined) edge = { file: relative(target) };
      } else if (!specifier.startsWith('#')) {
        const name = packageOf(specifier);
        if (name !== undefined) edge = { package: name };
      }
      if (!edge) continue;
      const key = edge.file ?? `package:${edge.package}`;
      const typesOnly = type && (!imports.has(key) || imports.get(key).type === true);
      imports.set(key, typesOnly ? { ...edge, type: true } : edge);
    }
    graph.set(relative(file), [...imports.values()]);
  }
  return graph;
}
