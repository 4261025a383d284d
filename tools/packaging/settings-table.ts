/**
 * The Marketplace README's settings table (docs/marketplace.md), made from package.json's
 * `contributes.configuration`: every setting with its default and the first sentence of its
 * description, so that no default is written twice. settings-manifest.ts writes both (`npm run docs:settings`).
 */
export const TABLE_START =
  '<!-- settings: made from protocol/vscode-settings.ts by `npm run docs:settings`; edit the settings there -->';
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
    const words = firstSentence(
      (schema.markdownDescription ?? schema.description ?? '').replace(/\s+/g, ' ').trim(),
    ).replace(/\|/g, '\\|');
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
