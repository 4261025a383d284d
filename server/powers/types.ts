/** The shapes every part of the gateway shares for a power (one MCP server the user has configured). */
import type { ServerWords } from './server-words.js';
import type { LoadIssueInfo, PowerSourceKind } from '../../protocol/records.js';

export type StdioServerSpec = {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
};

export type RemoteServerSpec = {
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
};

export type ServerSpec = StdioServerSpec | RemoteServerSpec;

export interface PowerSource {
  kind: PowerSourceKind;
  /** Absolute path of the file the power was read from. */
  file: string;
  /** Imported powers belong to another tool's config: Grimoire never writes them. */
  readOnly: boolean;
}

export interface PowerDefinition {
  name: string;
  version: string;
  description: string;
  keywords: string[];
  steering: string;
  /** Server spec with `${VAR}` already expanded. Values may hold secrets: never log them. */
  server: ServerSpec;
  source: PowerSource;
  /** True for imported powers: description and keywords are derived from the tools once known. */
  derivedFromTools: boolean;
  /** Reasons the power cannot start as configured (an unset variable, ...). Empty when it can. */
  problems: string[];
  /**
   * What the power's server said of itself at its last listing (set by the gateway's PowerTools,
   * never by a loader). Its instructions are the steering of a power whose spell or config gives none.
   */
  serverWords?: ServerWords;
  /** Hash of `server` only: a change means the running child must be restarted. */
  serverHash: string;
  /** Hash of the whole definition: a change of anything the agent sees. */
  definitionHash: string;
}

/** One problem found while loading a power source. Never fatal for the other sources. */
export type LoadIssue = LoadIssueInfo;

export interface RegistrySnapshot {
  powers: PowerDefinition[];
  issues: LoadIssue[];
}

/** What a reload of the registry changed (the registry's `change` event). */
export interface RegistryChange {
  added: PowerDefinition[];
  removed: PowerDefinition[];
  changed: { before: PowerDefinition; after: PowerDefinition }[];
  snapshot: RegistrySnapshot;
}
