/**
 * The MCP SDK by its public API only: no source under server/, client/ or test/ names a member the
 * SDK's own types (its .d.ts) declare `private` or `protected`, whether by `.name`, `['name']`, a
 * string, or a declaration in an interface cast onto an SDK object; and no code under server/
 * reaches any member starting with `_` at all (an undocumented internal of the SDK or of anything
 * else), except the wire field `_meta` (public in the SDK's types) and zod's `_zod` (zod's
 * documented namespace for library authors, not the SDK's). The private names are read from the
 * installed SDK, so an upgrade that adds internals is checked against them too: the v2 line the
 * gateway serves and reaches powers with (@modelcontextprotocol/server, client, core) and the v1
 * package (@modelcontextprotocol/sdk) the tests' v1 clients and the powers' side still use.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/temp.js';

const SDK_TYPES = [
  path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm'),
  ...['server', 'client', 'core'].map((name) =>
    path.join(repoRoot, 'node_modules', '@modelcontextprotocol', name, 'dist'),
  ),
];
const SCANNED = ['server', 'client', 'test'];
const THIS_FILE = path.join('test', 'unit', 'sdk-public-api.test.ts');
/** Underscore members code under server/ may use, and why. */
const UNDERSCORE_ALLOWED: Record<string, string> = {
  _meta: 'the MCP wire field (params._meta, result._meta), public in the SDK types',
  _zod: "zod's own namespace for library authors, not the SDK's",
};

function files(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(full, ext);
    return ext.test(entry.name) ? [full] : [];
  });
}

/** The member names the SDK's declaration files keep private or protected, and those they declare public anywhere. */
function sdkMembers(): { hidden: Set<string>; open: Set<string> } {
  const hidden = new Set<string>();
  const open = new Set<string>();
  for (const file of SDK_TYPES.flatMap((dir) => files(dir, /\.d\.m?ts$/))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /^\s+(?:private|protected)\s+(?:(?:readonly|static|abstract|async|get|set)\s+)*([A-Za-z_$][\w$]*)/gm,
    ))
      hidden.add(m[1]!);
    for (const m of text.matchAll(
      /^\s+(?!private\b|protected\b)(?:(?:public|readonly|static|abstract|async|get|set)\s+)*([A-Za-z_$][\w$]*)\??\s*[(:<]/gm,
    ))
      open.add(m[1]!);
  }
  return { hidden, open };
}

const escape = (name: string) => name.replace(/\$/g, '\\$');

/** The names to look for: every private underscore member, and every private multi-word one the SDK does not also declare public. */
function forbiddenNames(): string[] {
  const { hidden, open } = sdkMembers();
  return [...hidden].filter((name) => name.startsWith('_') || (/[A-Z]/.test(name.slice(1)) && !open.has(name))).sort();
}

/** Where `text` names one of `names` as a member: `.name`, `?.name`, `['name']`, `'name'`, or a member declaration `name(`/`name:`. */
export function namedMembers(text: string, names: string[]): string[] {
  const any = names.map(escape).join('|');
  const pattern = new RegExp(
    `\\.(${any})(?![\\w$])|['"\`](${any})['"\`]|^\\s*(?:readonly\\s+)?(${any})\\??\\s*[(:]`,
    'gm',
  );
  return [...new Set([...text.matchAll(pattern)].map((m) => (m[1] ?? m[2] ?? m[3])!))];
}

/** Underscore members reached in `text` (`x._a`, `x?._a`, `x['_a']`) that are not allowed. */
export function underscoreMembers(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\??\.(_[A-Za-z$][\w$]*)|\[\s*['"`](_[A-Za-z$][\w$]*)['"`]\s*\]/g)) {
    const name = (m[1] ?? m[2])!;
    if (!(name in UNDERSCORE_ALLOWED)) found.add(name);
  }
  return [...found];
}

const names = forbiddenNames();

test('the SDK private members are read from its declaration files', () => {
  for (const known of [
    '_requestMessageId',
    '_onrequest',
    '_onresponse',
    '_onnotification',
    '_transport',
    'getToolOutputValidator',
    'isToolTaskRequired',
    '_legacyShim',
    '_servedModernEra',
    '_ondiscover',
  ]) {
    assert.ok(names.includes(known), `${known} is private in the installed SDK's types`);
  }
  assert.ok(
    !names.includes('setRequestHandler') && !names.includes('callTool') && !names.includes('sessionIdGenerator'),
    'public members are not among them',
  );
});

test('the scan finds the ways code reaches an SDK internal, and passes public use', () => {
  const reaching = [
    'const id = this.client._requestMessageId++;',
    'routes._onrequest(message, extra);',
    "if (typeof router['_onresponse'] === 'function') {}",
    "const fits = '_onnotification' in protocol;",
    'interface Internals {\n  getToolOutputValidator(name: string): unknown;\n}',
    'return client?.isToolTaskRequired(tool);',
  ];
  for (const snippet of reaching) assert.notDeepEqual(namedMembers(snippet, names), [], snippet);
  assert.deepEqual(underscoreMembers('server._transport?.send(x); y?._onclose(); z["_ajv"]'), [
    '_transport',
    '_onclose',
    '_ajv',
  ]);
  const fine =
    'params._meta = { progressToken }; JSON.parse(line); const escapeRegExp = (t: string) => t; ' +
    'server.setRequestHandler(Schema, handler); schema._zod.def; /(_id|_url)$/';
  assert.deepEqual(namedMembers(fine, names), []);
  assert.deepEqual(underscoreMembers(fine), []);
});

test('no source names a member the SDK keeps private', () => {
  const offenders: string[] = [];
  for (const dir of SCANNED) {
    for (const file of files(path.join(repoRoot, dir), /\.(ts|mts|tsx)$/)) {
      const relative = path.relative(repoRoot, file);
      if (relative === THIS_FILE) continue;
      const found = namedMembers(fs.readFileSync(file, 'utf8'), names);
      if (found.length > 0) offenders.push(`${relative}: ${found.join(', ')}`);
    }
  }
  assert.deepEqual(offenders, [], 'SDK internals named (use the SDK public API instead)');
});

test('no code under server/ reaches an underscore member other than _meta and _zod', () => {
  const offenders: string[] = [];
  for (const file of files(path.join(repoRoot, 'server'), /\.(ts|mts)$/)) {
    const found = underscoreMembers(fs.readFileSync(file, 'utf8'));
    if (found.length > 0) offenders.push(`${path.relative(repoRoot, file)}: ${found.join(', ')}`);
  }
  assert.deepEqual(offenders, []);
});
