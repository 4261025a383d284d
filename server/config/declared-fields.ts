/**
 * The gateway's zod fields for the settings declared in protocol/vscode-settings.ts: type, bounds
 * and default from the one declaration. settings.ts (and intel-settings.ts) spread a section's fields
 * where they belong: `z.object({ ...declaredFields('resolve'), semantic: ... })`.
 */
import { z } from 'zod';
import {
  CALIBRATED,
  declaration,
  declaredKeys,
  type GatewaySettingKey,
  type SettingDeclaration,
  type SettingValue,
} from '../../protocol/vscode-settings.js';

export type DeclaredField<K extends GatewaySettingKey> = z.ZodDefault<z.ZodType<SettingValue<K>>>;

/** The fields of one section (`'upstream.idle'`): the declared keys right under it, by their last name. */
export type DeclaredFields<Section extends string> = {
  [
    K in GatewaySettingKey as K extends `${Section}.${infer Name}`
      ? Name extends `${string}.${string}`
        ? never
        : Name
      : never
  ]: DeclaredField<K>;
};

/** Every schema these functions built: test/unit/client-settings.test.ts finds each declared key's in the gateway's schema. */
const built = new WeakSet<z.ZodType>();

export function isDeclaredField(schema: unknown): boolean {
  return schema instanceof z.ZodType && built.has(schema);
}

function fieldSchema(setting: SettingDeclaration, defaults: Record<string, unknown>, name: string): z.ZodType {
  let value: unknown = setting.default;
  if (value === CALIBRATED) {
    if (!(name in defaults)) throw new Error(`the default of ${name} is calibrated: pass it to declaredFields`);
    value = defaults[name];
  }
  switch (setting.type) {
    case 'boolean':
      return z.boolean().default(value as boolean);
    case 'number':
    case 'integer': {
      let schema = setting.type === 'integer' ? z.number().int() : z.number();
      if (setting.minimum !== undefined) schema = schema.min(setting.minimum);
      if (setting.exclusiveMinimum !== undefined) schema = schema.gt(setting.exclusiveMinimum);
      if (setting.maximum !== undefined) schema = schema.max(setting.maximum);
      return schema.default(value as number);
    }
    case 'string':
      return z.enum(setting.enum).default(value as string);
    case 'array':
      return z.array(z.string()).default(() => [...(value as string[])]);
  }
}

/**
 * The declared gateway settings right under `section`, as zod fields with their bounds and defaults.
 * `calibrated` gives the defaults the declaration leaves to the gateway (`CALIBRATED`), by last name.
 */
export function declaredFields<Section extends string>(
  section: Section,
  calibrated: Record<string, number> = {},
): DeclaredFields<Section> {
  const fields: Record<string, z.ZodType> = {};
  for (const key of declaredKeys('gateway')) {
    if (!key.startsWith(`${section}.`)) continue;
    const name = key.slice(section.length + 1);
    if (name.includes('.')) continue;
    const schema = fieldSchema(declaration(key), calibrated, name);
    built.add(schema);
    fields[name] = schema;
  }
  return fields as DeclaredFields<Section>;
}
