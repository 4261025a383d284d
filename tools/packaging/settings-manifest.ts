/**
 * Writes what the setting declarations (protocol/vscode-settings.ts) make: package.json's
 * `contributes.configuration` and the Marketplace page's settings table (docs/marketplace.md).
 * `npm run docs:settings` writes both; without --write it says which is out of date and exits 1.
 * test/unit/client-settings.test.ts fails while either is out of date.
 * Usage: node out/tools/packaging/settings-manifest.js [--write]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CALIBRATED, VSCODE_SETTINGS, type SettingDeclaration } from '../../protocol/vscode-settings.js';
import { defaultSettings, type Settings } from '../../server/config/settings.js';
import { settingsTable, withSettingsTable, type Manifest } from './settings-table.js';

/** One `contributes.configuration` property, its keys in the order package.json has always had them. */
function property(
  key: string,
  setting: SettingDeclaration,
  order: number,
  defaults: Settings,
): Record<string, unknown> {
  const { to: _to, type, default: declared, markdownDescription, ...rest } = setting;
  const bounds = rest as Record<string, unknown>;
  const out: Record<string, unknown> = { type };
  for (const name of ['items', 'minimum', 'exclusiveMinimum', 'maximum', 'enum', 'enumDescriptions'])
    if (bounds[name] !== undefined) out[name] = bounds[name];
  out.default =
    declared === CALIBRATED
      ? key.split('.').reduce<unknown>((value, part) => (value as Record<string, unknown>)[part], defaults)
      : declared;
  if (setting.scope) out.scope = setting.scope;
  out.order = order;
  out.markdownDescription = markdownDescription;
  return out;
}

/** package.json's `contributes.configuration`; a calibrated default is the gateway's own. */
export function contributedConfiguration(
  defaults: Settings = defaultSettings(),
): Manifest['contributes']['configuration'] & { title: string } {
  const properties = Object.fromEntries(
    Object.entries(VSCODE_SETTINGS).map(([key, setting], order) => [
      `grimoire.${key}`,
      property(key, setting, order, defaults),
    ]),
  );
  return { title: 'Grimoire', properties };
}

/** package.json's text with its settings as declared, in its own formatting (two spaces, a final newline). */
export function manifestWithSettings(text: string): string {
  const manifest = JSON.parse(text) as { contributes: Record<string, unknown> };
  manifest.contributes.configuration = contributedConfiguration();
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export interface GeneratedFile {
  file: string;
  now: string;
  generated: string;
}

/** The two files the declarations make, as they are and as they should be. */
export function generatedSettingsFiles(root: string): GeneratedFile[] {
  const manifestFile = path.join(root, 'package.json');
  const manifestNow = fs.readFileSync(manifestFile, 'utf8');
  const manifest = manifestWithSettings(manifestNow);
  const pageFile = path.join(root, 'docs', 'marketplace.md');
  const pageNow = fs.readFileSync(pageFile, 'utf8');
  return [
    { file: manifestFile, now: manifestNow, generated: manifest },
    {
      file: pageFile,
      now: pageNow,
      generated: withSettingsTable(pageNow, settingsTable(JSON.parse(manifest) as Manifest)),
    },
  ];
}

function main(): void {
  const root = path.resolve(__dirname, '..', '..', '..');
  const write = process.argv.includes('--write');
  for (const { file, now, generated } of generatedSettingsFiles(root)) {
    if (generated === now) continue;
    if (write) {
      fs.writeFileSync(file, generated);
      console.error(`rewrote the settings in ${path.relative(root, file)}`);
    } else {
      console.error(`${path.relative(root, file)} is out of date: run npm run docs:settings`);
      process.exitCode = 1;
    }
  }
}

if (require.main === module) main();
