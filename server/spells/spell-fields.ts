/**
 * What the spell schema (server/powers/spell-schema.ts) says about one place in a spell file: the
 * keys a mapping takes, a field's documentation and its allowed values. Read from the zod
 * definition itself, so completion, hover and the checker never restate the format.
 */
import type { z } from 'zod';
import { spellSchema } from '../powers/spell-schema.js';

export type SpellPath = ReadonlyArray<string | number>;

export interface SpellField {
  key: string;
  /** The schema's `.describe()` text. */
  description?: string;
  /** The allowed scalar values (an enum, a literal, true/false); empty when free. */
  values: string[];
  shape: 'text' | 'list' | 'mapping' | 'flag' | 'choice';
  required: boolean;
}

type Schema = z.core.$ZodType;
type Def = { type: string; [key: string]: unknown };

const defOf = (schema: Schema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const descriptionOf = (schema: Schema): string | undefined =>
  (schema as unknown as { description?: string }).description;

/** Peels optional / default / pipe wrappers; `optional` tells whether one made the field optional. */
function unwrap(schema: Schema): { inner: Schema; optional: boolean; description?: string } {
  let current = schema;
  let optional = false;
  let description = descriptionOf(schema);
  for (;;) {
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault') {
      optional = true;
      current = def.innerType as Schema;
    } else if (def.type === 'pipe') {
      current = def.in as Schema;
    } else {
      description ??= descriptionOf(current);
      return { inner: current, optional, description };
    }
  }
}

/** The object variants a schema stands for (a discriminated union has several). */
function objectsOf(schema: Schema): Array<Record<string, Schema>> {
  const def = defOf(unwrap(schema).inner);
  if (def.type === 'object') return [def.shape as Record<string, Schema>];
  if (def.type === 'union') return (def.options as Schema[]).flatMap(objectsOf);
  return [];
}

/** The schemas that may sit at `path` (several where a union leaves it open). */
function schemasAt(path: SpellPath): Schema[] {
  let current: Schema[] = [spellSchema as unknown as Schema];
  for (const segment of path) {
    const next: Schema[] = [];
    for (const schema of current) {
      const inner = unwrap(schema).inner;
      const def = defOf(inner);
      if (def.type === 'record') next.push(def.valueType as Schema);
      else if (def.type === 'array' && typeof segment === 'number') next.push(def.element as Schema);
      else
        for (const shape of objectsOf(inner))
          if (typeof segment === 'string' && shape[segment]) next.push(shape[segment]);
    }
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

function valuesOf(inner: Schema): string[] {
  const def = defOf(inner);
  if (def.type === 'literal') return (def.values as unknown[]).map(String);
  if (def.type === 'enum') return Object.keys(def.entries as Record<string, unknown>);
  if (def.type === 'boolean') return ['true', 'false'];
  return [];
}

function shapeOf(inner: Schema): SpellField['shape'] {
  const type = defOf(inner).type;
  if (type === 'boolean') return 'flag';
  if (type === 'literal' || type === 'enum') return 'choice';
  if (type === 'array') return 'list';
  if (type === 'object' || type === 'record' || type === 'union') return 'mapping';
  return 'text';
}

function describeField(key: string, variants: Schema[]): SpellField {
  const unwrapped = variants.map(unwrap);
  return {
    key,
    description: unwrapped.find((u) => u.description)?.description,
    values: [...new Set(unwrapped.flatMap((u) => valuesOf(u.inner)))],
    shape: shapeOf(unwrapped[0].inner),
    required: unwrapped.every((u) => !u.optional),
  };
}

/**
 * The fixed keys of the mapping at `path` (the top level is `[]`), in schema order; undefined when
 * that mapping's keys are free names (tool names under `hints`, variable names under `env`).
 */
export function keysAt(path: SpellPath): SpellField[] | undefined {
  const schemas = schemasAt(path);
  const shapes = schemas.flatMap(objectsOf);
  if (shapes.length === 0) return undefined;
  const byKey = new Map<string, Schema[]>();
  for (const shape of shapes)
    for (const [key, schema] of Object.entries(shape)) byKey.set(key, [...(byKey.get(key) ?? []), schema]);
  return [...byKey].map(([key, variants]) => describeField(key, variants));
}

/** The field at `path` (its last segment is the key), or undefined when the schema has no such field. */
export function fieldAt(path: SpellPath): SpellField | undefined {
  if (path.length === 0) return undefined;
  const schemas = schemasAt(path);
  if (schemas.length === 0) return undefined;
  return describeField(String(path[path.length - 1]), schemas);
}

/** The whole spell's description (hover on nothing in particular). */
export function spellDescription(): string | undefined {
  return descriptionOf(spellSchema as unknown as Schema);
}
