import { preview } from '../../shared/preview.js';

const KNOWN = ['name', 'args', 'intent', 'proceed'];

/**
 * The keys of a call_tool_* request, normalised before parsing: the MCP key `arguments` is taken
 * as `args` (never dropped), and any other key the variants do not know is refused by name, so a
 * misspelt key never reaches the server as empty arguments.
 */
export function normalizeCallKeys(
  raw: Record<string, unknown>,
): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const { arguments: alias, ...rest } = raw;
  if (alias !== undefined && rest.args !== undefined)
    return { ok: false, error: "give the tool's arguments once, in args (arguments is the same key)" };
  const value = alias === undefined ? rest : { ...rest, args: alias };
  const unknown = Object.keys(value).filter((key) => !KNOWN.includes(key));
  if (unknown.length > 0) {
    const keys = unknown.map((key) => `'${preview(key)}'`).join(', ');
    const hint =
      value.args === undefined ? ": did you mean args (the tool's arguments)?" : `; the keys are ${KNOWN.join(', ')}.`;
    return { ok: false, error: `unknown key ${keys}${hint}` };
  }
  return { ok: true, value };
}
