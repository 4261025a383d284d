import * as path from 'node:path';
import type { PowerDefinition } from '../powers/types.js';

export type NewToolsPolicy = 'quarantine' | 'allow';

/**
 * What happens to a tool that appears in a power already seen: held for review, or pinned at once.
 * The setting `trust.newTools` decides for every power when set; otherwise a power that comes with
 * the workspace (its `.grimoire/` spells, its `.vscode/mcp.json`) is quarantined, since opening a
 * folder should not let it add tools unseen, while the user's own spell folders (`--spells` ones
 * too), their own imported configs and the bundled demos are allowed: the user wrote those.
 */
export function newToolsPolicy(
  power: PowerDefinition,
  setting: NewToolsPolicy | undefined,
  workspaceFolder: string | undefined,
): NewToolsPolicy {
  if (setting) return setting;
  return fromWorkspace(power, workspaceFolder) ? 'quarantine' : 'allow';
}

/** The power's definition is a file inside the workspace folder (a demo power never is). */
export function fromWorkspace(power: PowerDefinition, workspaceFolder: string | undefined): boolean {
  if (!workspaceFolder || power.source.kind === 'demo') return false;
  const relative = path.relative(path.resolve(workspaceFolder), path.resolve(power.source.file));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
