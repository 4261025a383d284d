/**
 * Where Grimoire keeps the user's files (spells, settings, data): the extension and the gateway
 * process must find the same folders, so both import this. Node built-ins only.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface GrimoirePaths {
  /** Spell folder and settings.json: `$GRIMOIRE_HOME`, else `~/.grimoire` when it exists, else the platform's place (platformPaths). */
  home: string;
  /** Database, journals, artifacts, models and demo data: `$GRIMOIRE_DATA`, else next to home or in the platform's data place. */
  data: string;
  /** The workspace's own spell folder, when a workspace is open. */
  workspaceSpells?: string;
}

export interface PathsHost {
  platform: NodeJS.Platform;
  homedir: string;
  /** Whether the folder exists (the legacy `~/.grimoire` is kept when it does). */
  exists: (folder: string) => boolean;
}

const realHost = (): PathsHost => ({
  platform: process.platform,
  homedir: os.homedir(),
  exists: (folder) => fs.existsSync(folder),
});

/**
 * Where Grimoire keeps its files when neither GRIMOIRE_HOME nor GRIMOIRE_DATA is set and there is
 * no `~/.grimoire`: spells and settings (written by the user, small) apart from the data (the
 * store, artifacts, models: machine-local, large) where the platform separates them.
 * - Windows: `%APPDATA%\Grimoire` (roams with the profile) and `%LOCALAPPDATA%\Grimoire` (does not).
 * - macOS: `~/Library/Application Support/Grimoire`, data in its `data` folder.
 * - Linux and the rest (XDG base directories): `$XDG_CONFIG_HOME/grimoire` (`~/.config/grimoire`)
 *   and `$XDG_DATA_HOME/grimoire` (`~/.local/share/grimoire`); a relative XDG value is ignored, as the spec says.
 */
export function platformPaths(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  homedir: string,
): { home: string; data: string } {
  if (platform === 'win32') {
    const p = path.win32;
    const roaming = absoluteIn(p, env.APPDATA) ?? p.join(homedir, 'AppData', 'Roaming');
    const local = absoluteIn(p, env.LOCALAPPDATA) ?? p.join(homedir, 'AppData', 'Local');
    return { home: p.join(roaming, 'Grimoire'), data: p.join(local, 'Grimoire') };
  }
  const p = path.posix;
  if (platform === 'darwin') {
    const home = p.join(homedir, 'Library', 'Application Support', 'Grimoire');
    return { home, data: p.join(home, 'data') };
  }
  const config = absoluteIn(p, env.XDG_CONFIG_HOME) ?? p.join(homedir, '.config');
  const data = absoluteIn(p, env.XDG_DATA_HOME) ?? p.join(homedir, '.local', 'share');
  return { home: p.join(config, 'grimoire'), data: p.join(data, 'grimoire') };
}

function absoluteIn(p: path.PlatformPath, value: string | undefined): string | undefined {
  return value && p.isAbsolute(value) ? value : undefined;
}

export function resolvePaths(
  env: NodeJS.ProcessEnv,
  workspaceFolder?: string,
  host: PathsHost = realHost(),
): GrimoirePaths {
  const p = host.platform === 'win32' ? path.win32 : path.posix;
  const legacy = p.join(host.homedir, '.grimoire');
  const usual = platformPaths(env, host.platform, host.homedir);
  const home = env.GRIMOIRE_HOME || (host.exists(legacy) ? legacy : usual.home);
  const data = env.GRIMOIRE_DATA || (env.GRIMOIRE_HOME || home === legacy ? p.join(home, 'data') : usual.data);
  return {
    home: p.resolve(home),
    data: p.resolve(data),
    workspaceSpells: workspaceFolder ? p.resolve(workspaceFolder, '.grimoire') : undefined,
  };
}
