import * as fs from 'node:fs';
import * as path from 'node:path';
import { logger } from '../log.js';
import { demoPaths } from './paths.js';

const log = logger('demo');

/**
 * The bundled demo powers: their spell folder and the variables their spells use. The filesystem
 * power serves the open workspace folder; with none open, a demo project copied into the data dir
 * once (so it never edits the checkout).
 */
export function prepareDemo(dataDir: string, workspaceFolder?: string): { dir: string; vars: Record<string, string> } {
  let project = workspaceFolder;
  if (!project) {
    project = path.join(dataDir, 'demo-project');
    if (!fs.existsSync(project)) fs.cpSync(demoPaths.projectTemplate, project, { recursive: true });
  }
  log.info(
    `the demo filesystem power serves ` +
      `${workspaceFolder ? 'the workspace folder' : 'a demo project (no workspace folder is open)'}: ${project}`,
  );
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
