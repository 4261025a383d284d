/**
 * Structured content for a summarized result. A tool without an output schema gets the summary
 * object itself. A tool with one must still get content its schema accepts (clients validate it):
 * a template is made from the original (its largest text marked for the summary text, other long
 * strings cut, arrays cut to their first items), filled and validated; undefined when that does
 * not fit the schema, and then the raw result goes through unchanged. The template is stored with
 * the artifact so that a cache hit can answer without the original.
 */
import type { Tool } from '../util/mcp-types.js';
import type { JsonSchemaValidator } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';

const LONG_STRING = 256;
const CUT_TO = 200;
const KEEP_ITEMS = 3;
const MAX_VALIDATORS = 200;
const MARKER = '\u0000grimoire-summary\u0000';

let ajv: AjvJsonSchemaValidator | undefined;
const validators = new Map<string, JsonSchemaValidator<unknown>>();

/** The original structured content, shrunk, with a marker where the summary text goes. */
export function structuredTemplate(original: unknown): unknown {
  if (!original) return undefined;
  return shrink(original, largestString(original));
}

export function summaryStructuredContent(
  outputSchema: Tool['outputSchema'],
  template: unknown,
  summary: Record<string, unknown>,
  summaryText: string,
): Record<string, unknown> | undefined {
  if (!outputSchema) return summary;
  if (template === undefined || template === null || typeof template !== 'object') return undefined;
  const filled = fill(template, summaryText) as Record<string, unknown>;
  return validatorFor(outputSchema)(filled).valid ? filled : undefined;
}

function validatorFor(schema: NonNullable<Tool['outputSchema']>): JsonSchemaValidator<unknown> {
  const key = JSON.stringify(schema);
  let validator = validators.get(key);
  if (!validator) {
    ajv ??= new AjvJsonSchemaValidator();
    validator = ajv.getValidator(schema as never);
    if (validators.size >= MAX_VALIDATORS) validators.clear();
    validators.set(key, validator);
  }
  return validator;
}

function largestString(value: unknown): string | undefined {
  let best: string | undefined;
  const visit = (v: unknown) => {
    if (typeof v === 'string') {
      if (!best || v.length > best.length) best = v;
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(value);
  return best;
}

function shrink(value: unknown, largest: string | undefined): unknown {
  if (typeof value === 'string') {
    if (value === largest && value.length > LONG_STRING) return MARKER;
    return value.length > LONG_STRING ? `${value.slice(0, CUT_TO)}…` : value;
  }
  if (Array.isArray(value)) return value.slice(0, KEEP_ITEMS).map((item) => shrink(item, largest));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrink(v, largest)]));
  return value;
}

function fill(value: unknown, text: string): unknown {
  if (value === MARKER) return text;
  if (Array.isArray(value)) return value.map((item) => fill(item, text));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, text)]));
  return value;
}
