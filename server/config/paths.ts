/** The package's own folders. Where the user's files are (the extension must agree) is shared/grimoire-paths.ts. */
import * as path from 'node:path';

/** The repository / package root: out/server/config/paths.js lives three levels below it. */
export const packageRoot = path.resolve(__dirname, '..', '..', '..');

export const demoPaths = {
  spells: path.join(packageRoot, 'server', 'demo', 'powers'),
  projectTemplate: path.join(packageRoot, 'server', 'demo', 'project'),
  modules: path.join(packageRoot, 'node_modules'),
};
