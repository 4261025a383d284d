import * as fs from 'node:fs';
import * as path from 'node:path';
import { demoPaths } from './paths.js';

/**
 * The bundled demo powers: their spell folder and the variables their spells use. The demo
 * project is copied into the data dir once, so the filesystem power never edits the checkout.
 */
export function prepareDemo(dataDir: string): { dir: string; vars: Record<string, string> } {
  const project = path.join(dataDir, 'demo-project');
  if (!fs.existsSync(project)) fs.cpSync(demoPaths.projectTemplate, project, { recursive: true });
  return {
    dir: demoPaths.spells,
    vars: {
      GRIMOIRE_NODE: process.execPath,
      GRIMOIRE_DEMO_MODULES: demoPaths.modules,
      GRIMOIRE_DEMO_PROJECT: project,
      GRIMOIRE_DATA: dataDir,
    },
  };
}
