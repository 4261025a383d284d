import * as os from 'node:os';
import * as path from 'node:path';

/** The repository / package root: out/server/config/paths.js lives three levels below it. */
export const packageRoot = path.resolve(__dirname, '..', '..', '..');

export interface GrimoirePaths {
  /** Spell folder and settings: `$GRIMOIRE_HOME`, default `~/.grimoire`. */
  home: string;
  /** Database, journals and demo data: `$GRIMOIRE_DATA`, default `<home>/data`. */
  data: string;
  /** The workspace's own spell folder, when a workspace is open. */
  workspaceSpells?: string;
}

export function resolvePaths(env: NodeJS.ProcessEnv, workspaceFolder?: string): GrimoirePaths {
  const home = env.GRIMOIRE_HOME || path.join(os.homedir(), '.grimoire');
  const data = env.GRIMOIRE_DATA || path.join(home, 'data');
  return {
    home: path.resolve(home),
    data: path.resolve(data),
    workspaceSpells: workspaceFolder ? path.resolve(workspaceFolder, '.grimoire') : undefined,
  };
}

export const demoPaths = {
  spells: path.join(packageRoot, 'server', 'demo', 'powers'),
  projectTemplate: path.join(packageRoot, 'server', 'demo', 'project'),
  modules: path.join(packageRoot, 'node_modules'),
};
