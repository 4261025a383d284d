/**
 * Each `grimoire.*` setting is declared once (protocol/vscode-settings.ts): the client reads it, the
 * gateway validates it and package.json and the Marketplace table show it, all from that declaration.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { GATEWAY_SETTING_KEYS, readClientSettings, type SettingsSource } from '../../client/settings.js';
import { generatedSettingsFiles } from '../../tools/packaging/settings-manifest.js';
import { CALIBRATED, declaration, type SettingDeclaration } from '../../protocol/vscode-settings.js';
import { isDeclaredField } from '../../server/config/declared-fields.js';
import { defaultSettings, settingsSchema } from '../../server/config/settings.js';
import { effectiveSettings, gatewayConfig } from '../../server/rpc/client-settings.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

function source(values: Record<string, unknown>, explicit: Record<string, unknown>): SettingsSource {
  return { value: (key) => explicit[key] ?? values[key], explicit: (key) => explicit[key] };
}

function valueAt(object: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], object);
}

/** The zod schema at a dotted path of the gateway's settings, through `.prefault({})` and `.default()` wrappers. */
function fieldAt(dotted: string): z.ZodType | undefined {
  let schema: z.ZodType | undefined = settingsSchema;
  for (const key of dotted.split('.')) {
    while (schema instanceof z.ZodPrefault || schema instanceof z.ZodDefault) schema = schema.unwrap() as z.ZodType;
    if (!(schema instanceof z.ZodObject)) return undefined;
    schema = (schema.shape as Record<string, z.ZodType>)[key];
  }
  return schema;
}

/** A value the declaration admits that is not its default: the least one in bounds, or the other boolean or enum member. */
function validOtherThanDefault(setting: SettingDeclaration, current: unknown): unknown {
  switch (setting.type) {
    case 'boolean':
      return !current;
    case 'string':
      return setting.enum.find((member) => member !== current);
    case 'array':
      return ['x'];
    default: {
      const least = setting.minimum ?? (setting.exclusiveMinimum ?? -1) + 1;
      return least === current ? least + 1 : least;
    }
  }
}

/** Values the declaration refuses, each with the part of the gateway's message that says why. */
function refused(setting: SettingDeclaration): [unknown, RegExp][] {
  const values: [unknown, RegExp][] = [];
  if (setting.type === 'boolean' || setting.type === 'string') values.push([42, /Invalid/]);
  if (setting.type !== 'number' && setting.type !== 'integer') return values;
  if (setting.minimum !== undefined) values.push([setting.minimum - 1, new RegExp(`>=${setting.minimum}`)]);
  if (setting.exclusiveMinimum !== undefined)
    values.push([setting.exclusiveMinimum, new RegExp(`>${setting.exclusiveMinimum}`)]);
  if (setting.maximum !== undefined) values.push([setting.maximum + 1, new RegExp(`<=${setting.maximum}`)]);
  if (setting.type === 'integer') values.push([(setting.minimum ?? setting.exclusiveMinimum ?? 0) + 1.5, /int/]);
  return values;
}

test('only the gateway settings the user set are sent, shaped like settings.json', () => {
  const settings = readClientSettings(
    source(
      { demoPowers: false, spellFolders: [] },
      { 'resolve.activateThreshold': 0.9, 'upstream.idle.mode': 'turns', 'imports.claudeDesktop': false },
    ),
  );
  assert.deepEqual(settings.gateway, {
    resolve: { activateThreshold: 0.9 },
    upstream: { idle: { mode: 'turns' } },
    imports: { claudeDesktop: false },
  });
  assert.equal(settings.demoPowers, false);
});

test('demo powers and spell folders are read from the effective value; junk in the folder list is dropped', () => {
  const settings = readClientSettings(source({ demoPowers: true, spellFolders: ['~/spells', 42, 'team'] }, {}));
  assert.equal(settings.demoPowers, true);
  assert.deepEqual(settings.spellFolders, ['~/spells', 'team']);
  assert.deepEqual(settings.gateway, {});
  assert.deepEqual(readClientSettings(source({ demoPowers: 'yes', spellFolders: 'team' }, {})), {
    demoPowers: false,
    spellFolders: [],
    gateway: {},
  });
});

test('package.json and the Marketplace settings table are what the declarations make (run npm run docs:settings)', () => {
  for (const { file, now, generated } of generatedSettingsFiles(repoRoot))
    assert.equal(now, generated, `${file} is out of date: run npm run docs:settings`);
});

test("every declared gateway setting is a field of the gateway's schema built from its declaration, with the declared default", () => {
  const defaults = defaultSettings();
  for (const key of GATEWAY_SETTING_KEYS) {
    assert.ok(
      isDeclaredField(fieldAt(key)),
      `settingsSchema.${key} is spread from declaredFields('${key.split('.').slice(0, -1).join('.')}')`,
    );
    const declared = declaration(key).default;
    if (declared !== CALIBRATED) assert.deepEqual(valueAt(defaults, key), declared, key);
  }
});

test('every declared gateway setting reaches the runtime settings when set', () => {
  const home = tempDir();
  try {
    const defaults = defaultSettings();
    const explicit = Object.fromEntries(
      GATEWAY_SETTING_KEYS.map((key) => [key, validOtherThanDefault(declaration(key), valueAt(defaults, key))]),
    );
    const client = readClientSettings(source({ demoPowers: false, spellFolders: [] }, explicit));
    const config = gatewayConfig({ settings: client }, { GRIMOIRE_HOME: home.dir });
    assert.deepEqual(config.problems, []);
    for (const [key, value] of Object.entries(explicit)) assert.deepEqual(valueAt(config.settings, key), value, key);
  } finally {
    home.cleanup();
  }
});

test("a value out of a declaration's bounds is refused by the gateway, named, and the default kept", () => {
  const defaults = defaultSettings();
  let checked = 0;
  for (const key of GATEWAY_SETTING_KEYS) {
    for (const [value, why] of refused(declaration(key))) {
      const patch = key.split('.').reduceRight<unknown>((inner, part) => ({ [part]: inner }), value) as Record<
        string,
        unknown
      >;
      const result = effectiveSettings('/nonexistent/settings.json', patch);
      assert.equal(result.problems.length, 1, `${key} = ${String(value)}`);
      assert.match(result.problems[0]!, new RegExp(`^grimoire\\.${key.replace(/\./g, '\\.')}: `));
      assert.match(result.problems[0]!, why, `${key} = ${String(value)}`);
      assert.deepEqual(valueAt(result.settings, key), valueAt(defaults, key));
      checked++;
    }
  }
  assert.ok(checked >= GATEWAY_SETTING_KEYS.length, `${checked} refusals checked`);
});
