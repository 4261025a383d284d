/** Hover in a spell file: the field under the cursor, with the schema's documentation and allowed values. */
import { fieldAt, type SpellPath } from './spell-fields.js';
import { offsetAt, parseSpellText, pathAt, type Position } from './yaml-ranges.js';

const TOOL_MAPS = new Set(['hints', 'annotations']);

/** Markdown for the hover, or undefined over nothing the schema documents. */
export function hoverSpell(text: string, position: Position): string | undefined {
  const spell = parseSpellText(text);
  const at = pathAt(spell, offsetAt(text, position));
  if (!at) return undefined;
  // Over a list entry or a free-named key (a tool under hints), document the field that holds it.
  let fieldPath: SpellPath = at.path;
  while (fieldPath.length > 0 && typeof fieldPath[fieldPath.length - 1] === 'number')
    fieldPath = fieldPath.slice(0, -1);
  if (fieldPath.length === 2 && TOOL_MAPS.has(String(fieldPath[0]))) {
    return `**${fieldPath[1]}**: the ${fieldPath[0]} of this power's tool \`${fieldPath[1]}\`.`;
  }
  const field = fieldAt(fieldPath);
  if (!field?.description) return undefined;
  const values = field.values.length ? `\n\nValues: ${field.values.map((value) => `\`${value}\``).join(', ')}` : '';
  return `**${fieldPath.join('.')}** (${field.required ? 'required' : 'optional'})\n\n${field.description}${values}`;
}
