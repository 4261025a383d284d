import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from './config/paths.js';

/** This package's version, from its package.json (read once, when first imported). */
export const VERSION: string = (
  JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }
).version;
