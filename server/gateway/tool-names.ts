import { shortHash } from '../../shared/hash.js';

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const SEPARATOR = '__';

/**
 * VS Code names an MCP tool `mcp_<label>_<tool>` and model APIs cap function names at 64
 * characters. The prefix is at most 18 characters (VS Code's McpToolName.MaxPrefixLen: `mcp_`, the
 * server's label lowercased and cut to 13, `_`); versions that number a colliding label put the
 * number after the 13 characters, which makes 19. What the gateway exposes keeps within the rest.
 */
export const VSCODE_TOOL_NAME_MAX = 64;
export const VSCODE_PREFIX_MAX = 19;
export const EXPOSED_NAME_MAX = VSCODE_TOOL_NAME_MAX - VSCODE_PREFIX_MAX;

/** The prefix VS Code puts before the tools of a server with this label (the `index`-th server of that label). */
export function vscodeToolPrefix(label: string, index = 1): string {
  const base = label
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .slice(0, 13);
  return `mcp_${base}${index === 1 ? '' : index}_`;
}

/**
 * The name an active power's tool (or prompt) is exposed under: `<power>__<tool>`. When that is
 * longer than EXPOSED_NAME_MAX or holds characters outside `[a-zA-Z0-9_-]`, those are replaced,
 * the name is cut, and a hash of the exact power and tool is appended, so that two names never
 * collide; the gateway maps an exposed name back through the table it exposed, never by parsing.
 */
export function exposedToolName(power: string, tool: string): string {
  const plain = `${power}${SEPARATOR}${tool}`;
  if (plain.length <= EXPOSED_NAME_MAX && /^[a-zA-Z0-9_-]+$/.test(plain)) return plain;
  const suffix = `_${shortHash(`${power}\u0000${tool}`, 8)}`;
  const safe = `${power.replace(/[^a-zA-Z0-9_-]/g, '_')}${SEPARATOR}${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  return safe.slice(0, EXPOSED_NAME_MAX - suffix.length) + suffix;
}

/** `power:tool` or `power__tool` -> its parts, for names written by hand. */
export function splitQualifiedName(name: string): { power: string; tool: string } | undefined {
  const colon = name.indexOf(':');
  if (colon > 0) return { power: name.slice(0, colon), tool: name.slice(colon + 1) };
  const sep = name.indexOf(SEPARATOR);
  if (sep > 0) return { power: name.slice(0, sep), tool: name.slice(sep + SEPARATOR.length) };
  return undefined;
}
