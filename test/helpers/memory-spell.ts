/** The real server-memory power as the audit tests use it: its spell, one write through the gateway, what it stored. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { repoRoot, writeSpell } from './temp.js';

/** The tools server-memory lists, in its order. */
export const MEMORY_TOOL_NAMES: readonly string[] = [
  'create_entities',
  'create_relations',
  'add_observations',
  'delete_entities',
  'delete_observations',
  'delete_relations',
  'read_graph',
  'search_nodes',
  'open_nodes',
];

const memoryServer = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

/** Writes the spell `memory` into `spells`: server-memory keeping its knowledge graph in `memoryFile`. */
export function writeMemorySpell(spells: string, memoryFile: string): void {
  writeSpell(
    spells,
    'memory',
    `name: memory
version: 1.0.0
description: A knowledge graph the agent remembers entities in.
keywords: [memory, entity, graph]
server:
  command: ${JSON.stringify(process.execPath)}
  args: [${JSON.stringify(memoryServer)}]
  env:
    MEMORY_FILE_PATH: ${JSON.stringify(memoryFile)}
`,
  );
}

/** memory:create_entities of one entity named `entity`, through the gateway's call_tool_write. */
export function createEntity(client: Client, entity: string) {
  return client.callTool({
    name: 'call_tool_write',
    arguments: {
      name: 'memory:create_entities',
      args: { entities: [{ name: entity, entityType: 'test', observations: ['made in a test'] }] },
      intent: { operation_type: 'write' },
    },
  });
}

/** The names of the entities server-memory stored in `memoryFile` (none before its first write). */
export function storedEntities(memoryFile: string): string[] {
  const text = fs.existsSync(memoryFile) ? fs.readFileSync(memoryFile, 'utf8') : '';
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { name: string }).name);
}
