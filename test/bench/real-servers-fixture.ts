/**
 * The 14 real npm MCP servers as captured by capture-real-servers.ts: one JSON file per server in
 * test/fixtures/real-servers/, read offline by the benchmarks.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/temp.js';

export interface RealServerCapture {
  /** The power's name in the benchmarks. */
  server: string;
  package: string;
  packageVersion: string;
  /** As the server answered `initialize`. */
  serverInfo: { name: string; version: string; title?: string; description?: string };
  instructions?: string;
  tools: {
    name: string;
    title?: string;
    description?: string;
    inputSchema: Record<string, unknown>;
    annotations?: Record<string, unknown>;
  }[];
}

export const REAL_SERVERS_DIR = path.join(repoRoot, 'test', 'fixtures', 'real-servers');

export function readRealServers(dir = REAL_SERVERS_DIR): RealServerCapture[] {
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as RealServerCapture);
}

/** A captured server's tools as rows of the routing benchmark's tools.jsonl, named '<server>:<tool>'. */
export function benchToolRows(capture: RealServerCapture): Record<string, unknown>[] {
  return capture.tools.map((tool) => ({
    tool_id: `${capture.server}:${tool.name}`,
    server: capture.server,
    name: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  }));
}

/**
 * What a captured server says of itself at `initialize`, as a row of the benchmark's server-words.jsonl (an
 * import is described from it).
 */
export function benchServerWordsRow(capture: RealServerCapture): Record<string, unknown> {
  const { title, description } = capture.serverInfo;
  return {
    server: capture.server,
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    ...(capture.instructions ? { instructions: capture.instructions } : {}),
  };
}
