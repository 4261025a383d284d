/** The Marketplace README's settings table is made from package.json: the page and the manifest never disagree on a default. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { settingsTable, withSettingsTable, type Manifest } from '../../tools/packaging/settings-table.js';

const root = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;

test('docs/marketplace.md carries the settings table package.json makes (run npm run docs:settings after changing a setting)', () => {
  const page = fs.readFileSync(path.join(root, 'docs', 'marketplace.md'), 'utf8');
  assert.equal(page, withSettingsTable(page, settingsTable(manifest)));
});

test('every contributed setting is a row with its own default', () => {
  const table = settingsTable(manifest);
  for (const [key, schema] of Object.entries(manifest.contributes.configuration.properties)) {
    const row = table.split('\n').find((line) => line.startsWith(`| \`${key}\` |`));
    assert.ok(row, `${key} has a row`);
    const shown = row.split(' | ')[1];
    const expected =
      schema.default === true
        ? 'on'
        : schema.default === false
          ? 'off'
          : typeof schema.default === 'number'
            ? String(schema.default)
            : typeof schema.default === 'string'
              ? `\`${schema.default}\``
              : `\`${JSON.stringify(schema.default)}\``;
    assert.equal(shown, expected, key);
  }
  assert.match(table, /\| `grimoire\.resolve\.activateThreshold` \| 0\.9665 \|/);
  for (const key of ['imports.cursor', 'imports.kiro', 'intel.readWholeTokens'])
    assert.match(table, new RegExp(`grimoire\\.${key.replace('.', '\\.')}`));
});

test('a description is cut at its first sentence, not at "e.g."; a page without the markers is refused', () => {
  const table = settingsTable({
    contributes: {
      configuration: {
        properties: {
          'x.y': { default: 3, markdownDescription: 'Uses a model (e.g. Copilot) when one is there. More words.' },
        },
      },
    },
  });
  assert.match(table, /\| `x\.y` \| 3 \| Uses a model \(e\.g\. Copilot\) when one is there\. \|/);
  assert.throws(() => withSettingsTable('# no table', table), /no settings markers/);
});
