/**
 * The identifiers a summary names, expanded from their compact forms (ranges, `prefix{a,b}`,
 * `folder/: a b` groups, `prefix{field}suffix` URL templates). Tests and the benchmark use it to
 * check that a fact survived summarization.
 */
import { expandCompact } from './compact.js';

export function expandIdentifiers(identifiers: Record<string, string> | undefined): Set<string> {
  const out = new Set<string>();
  if (!identifiers) return out;
  const values = new Map<string, string[]>();
  for (const [name, text] of Object.entries(identifiers)) {
    const expanded = /^[^{}]*: /.test(text) ? expandGroups(text) : expandCompact(text);
    values.set(name, expanded);
    for (const value of expanded) out.add(value);
  }
  // URL templates: `https://host/issues/{number}` with the number field's values.
  for (const [name, text] of Object.entries(identifiers)) {
    const template = /^(\S*)\{([\w.$[\]*]+)\}(\S*)$/.exec(text);
    if (!template) continue;
    const prefix = name.includes('[*].') ? name.slice(0, name.lastIndexOf('[*].') + 4) : '';
    const field = values.get(`${prefix}${template[2]}`) ?? values.get(template[2]!);
    for (const value of field ?? []) out.add(`${template[1]}${value}${template[3]}`);
  }
  return out;
}

/** `folder/: a b; folder/sub/: c` -> folder/a, folder/b, folder/sub/c (and the bare names). */
function expandGroups(text: string): string[] {
  const out: string[] = [];
  for (const group of text.replace(/ …\+\d+ more$/, '').split('; ')) {
    const colon = group.indexOf(': ');
    if (colon < 0) continue;
    const folder = group.slice(0, colon);
    for (const name of expandCompact(group.slice(colon + 2))) {
      out.push(name, folder === './' ? name : `${folder}${name}`);
    }
  }
  return out;
}
