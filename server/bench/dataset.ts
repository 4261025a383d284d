import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolAnnotations } from '../util/mcp-types.js';
import { effectiveAnnotations } from '../calls/annotations.js';
import { toolEffect } from '../gateway/power-documents.js';
import { catalogRarity, deriveFromTools } from '../powers/derive.js';
import { boundedWords, type ServerWords } from '../powers/server-words.js';
import { packageRoot } from '../config/paths.js';
import type { PowerDocument } from '../resolve/types.js';

/** The routing benchmark format of test/fixtures/benchmarks/ (see its README). */
export interface BenchServer {
  server: string;
  description: string;
  keywords?: string[];
}

export interface BenchTool {
  tool_id: string;
  server: string;
  name: string;
  description?: string;
  inputSchema?: { properties?: Record<string, unknown> };
  annotations?: ToolAnnotations;
}

export interface BenchQuery {
  qid: string;
  query: string;
  task_description?: string;
  gt_servers?: string[];
  gt_tool_ids?: string[];
}

/** What a server says of itself at `initialize` (server-words.jsonl): an imported power is described from it and its tools. */
export interface BenchServerWords extends ServerWords {
  server: string;
}

/**
 * The servers as an import of them would be described: no description or keywords of their own,
 * only what each says of itself and its tools say, derived as the gateway derives them.
 */
export function importedServers(servers: BenchServer[], tools: BenchTool[], said: BenchServerWords[]): BenchServer[] {
  const wordsOf = new Map(said.map(({ server, ...words }) => [server, boundedWords(words)]));
  const toolsOf = (server: string) => tools.filter((t) => t.server === server);
  const rarity = catalogRarity(servers.map(({ server }) => ({ tools: toolsOf(server), said: wordsOf.get(server) })));
  return servers.map(({ server }) => {
    const derived = deriveFromTools(
      { name: server, description: '', serverWords: wordsOf.get(server) ?? {} },
      toolsOf(server),
      undefined,
      rarity,
    );
    return { server, description: derived.description, keywords: derived.keywords };
  });
}

export function readJsonl<T>(file: string): T[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const rows: T[] = [];
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    try {
      rows.push(JSON.parse(line) as T);
    } catch (error) {
      throw new Error(`${file}:${index + 1}: not valid JSON (${(error as Error).message})`);
    }
  });
  return rows;
}

/** One power document per server, carrying its tools, exactly as the gateway indexes real powers. */
export function benchPowers(servers: BenchServer[], tools: BenchTool[]): PowerDocument[] {
  const byServer = new Map<string, PowerDocument>();
  for (const server of servers) {
    byServer.set(server.server, {
      name: server.server,
      description: server.description,
      keywords: server.keywords ?? [],
      tools: [],
    });
  }
  for (const tool of tools) {
    const power = byServer.get(tool.server);
    if (!power)
      throw new Error(`tool '${tool.tool_id}' names server '${tool.server}', which servers.jsonl does not have`);
    // Annotations as the gateway decides them by default: declared, else inferred from the name.
    const effect = toolEffect(effectiveAnnotations(tool, undefined, true));
    power.tools.push({
      id: tool.tool_id,
      name: tool.name,
      description: tool.description,
      parameters: Object.keys(tool.inputSchema?.properties ?? {}),
      ...effect,
    });
  }
  return [...byServer.values()];
}

/** The development sets that ship with the repository (test/fixtures/benchmarks/README.md has their provenance and licences). */
export const BUNDLED_BENCHMARKS = path.join(packageRoot, 'test', 'fixtures', 'benchmarks');

/** The folder of development sets: the one named (--benchmarks DIR), else $GRIMOIRE_BENCHMARKS, else the repository's own. */
export function benchmarksDir(named?: string, env: NodeJS.ProcessEnv = process.env): string {
  return named ?? (env.GRIMOIRE_BENCHMARKS || BUNDLED_BENCHMARKS);
}
