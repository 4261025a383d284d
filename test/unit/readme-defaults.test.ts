/**
 * The settings page's block of settings.json defaults (docs/settings.md) states the gateway's own defaults
 * (server/config/settings.ts), value for value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultSettings } from '../../server/config/settings.js';
import { repoRoot } from '../helpers/temp.js';

function leaves(value: unknown, at: string[] = []): Array<[string[], unknown]> {
  if (value && typeof value === 'object' && !Array.isArray(value))
    return Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...at, key]));
  return [[at, value]];
}

test("every default the settings page's settings.json block states is the gateway's default", () => {
  const page = fs.readFileSync(path.join(repoRoot, 'docs', 'settings.md'), 'utf8');
  const block = /The defaults:\n\n```json\n([\s\S]*?)\n```/.exec(page);
  assert.ok(block, 'docs/settings.md has its block of defaults');
  const stated = leaves(JSON.parse(block[1]));
  assert.ok(stated.length > 30, `${stated.length} values stated`);
  const defaults = defaultSettings() as unknown as Record<string, unknown>;
  for (const [at, value] of stated) {
    const actual = at.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], defaults);
    if (at.join('.') === 'trust.newTools') {
      assert.equal(actual, undefined, 'unset: chosen by origin');
      continue;
    }
    assert.deepEqual(actual, value, at.join('.'));
  }
});
