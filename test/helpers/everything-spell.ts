import * as path from 'node:path';
import { repoRoot } from './temp.js';

/** server-everything, the MCP reference server with every feature, from node_modules. */
export const everythingEntry = path.join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

/** The spell's `server:` block that starts server-everything over stdio. */
export const everythingStdioServer =
  `server:\n  command: ${JSON.stringify(process.execPath)}\n  args: ` +
  `${JSON.stringify([everythingEntry, 'stdio'])}\n`;

/** A spell named `everything` for server-everything, reached as `server` (a spell's `server:` block) says. */
export function everythingSpell(server: string): string {
  return `name: everything
version: 1.0.0
description: The MCP reference server with every feature.
keywords: [echo, prompts, resources, sampling]
${server}`;
}
