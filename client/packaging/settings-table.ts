/**
 * The Marketplace README's settings table (docs/marketplace.md), made from package.json's
 * `contributes.configuration`: every setting with its default and the first sentence of its
 * description, so that no default is written twice. `npm run docs:settings` rewrites the table;
 * test/unit/client-settings-table.test.ts fails when the page and package.json disagree.
 * Usage: node out/client/packaging/settings-table.js [--write]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const TABLE_START = '<!-- settings: made from package.json by `npm run docs:settings`; edit the descriptions there -->';
export const TABLE_END = '<!-- settings end -->';

interface SettingSchema {
  default?: unknown;
  description?: string;
  markdownDescription?: string;
  order?: number;
}

export interface Manifest {
  contributes: { configuration: { properties: Record<string, SettingSchema> } };
}

function defaultText(value: unknown): string {
  if (value === true) return 'on';
  if (value === false) return 'off';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `\`${value}\``;
  return `\`${JSON.stringify(value)}\``;
}

/** The first sentence (up to ". " outside backticks), table-safe. */
function firstSentence(text: string): string {
  let inCode = false;
  for (let at = 0; at < text.length; at++) {
    if (text[at] === '`') inCode = !inCode;
    const end = !inCode && text[at] === '.' && (at + 1 === text.length || /\s/.test(text[at + 1]));
    if (end && !/\b(e\.g|i\.e)$/.test(text.slice(0, at))) return text.slice(0, at + 1);
  }
  return text;
}

export function settingsTable(manifest: Manifest): string {
  const rows = Object.entries(manifest.contributes.configuration.properties).map(([key, schema]) => {
    const words = firstSentence((schema.markdownDescription ?? schema.description ?? '').replace(/\s+/g, ' ').trim()).replace(/\|/g, '\\|');
    return `| \`${key}\` | ${defaultText(schema.default)} | ${words} |`;
  });
  return ['| setting | default | what it does |', '|---|---|---|', ...rows].join('\n');
}

/** The page with its table replaced; throws when the markers are missing. */
export function withSettingsTable(page: string, table: string): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the page has no settings markers (${TABLE_START} ... ${TABLE_END})`);
  return `${page.slice(0, start)}${TABLE_START}\n${table}\n${page.slice(end)}`;
}

function main(): void {
  const root = path.resolve(__dirname, '..', '..', '..');
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
  const file = path.join(root, 'docs', 'marketplace.md');
  const page = fs.readFileSync(file, 'utf8');
  const next = withSettingsTable(page, settingsTable(manifest));
  if (process.argv.includes('--write')) fs.writeFileSync(file, next);
  else process.stdout.write(settingsTable(manifest) + '\n');
  if (next !== page) console.error(process.argv.includes('--write') ? `rewrote the settings table in ${file}` : `${file} differs: run npm run docs:settings`);
}

if (require.main === module) main();
