import { EventEmitter } from 'node:events';
import type { Tool, ToolAnnotations } from '../util/mcp-types.js';
import { effectiveAnnotations, type EffectiveAnnotations } from '../calls/annotations.js';
import type { Settings } from '../config/settings.js';
import { unknownHintTools } from '../hints/declared-hints.js';
import { offeredDirectlyByVsCode } from '../powers/import-vscode.js';
import type { PowerRegistry } from '../powers/registry.js';
import type { PowerDefinition } from '../powers/types.js';
import { newToolsPolicy } from '../trust/quarantine-policy.js';
import type { ToolTrust } from '../trust/tool-trust.js';
import type { ReadConfirmations } from '../trust/read-confirmations.js';
import type { CallScope } from '../upstream/client-features.js';
import type { UpstreamManager } from '../upstream/manager.js';
import { logger } from '../log.js';
import { asTool, type Catalog } from './catalog.js';
import type { ServerToolLists } from './server-tool-lists.js';
import { boundedWords, type ServerWords } from '../powers/server-words.js';

/** A power with its server's words: their instructions guide the agent when the spell or config gives no steering. */
function withServerWords(power: PowerDefinition, words: ServerWords | undefined): PowerDefinition {
  if (!words || Object.keys(words).length === 0) return power;
  return {
    ...power,
    serverWords: words,
    steering: power.steering.trim() ? power.steering : (words.instructions ?? ''),
  };
}

const log = logger('gateway');

export interface PowerToolsDeps {
  registry: Pick<PowerRegistry, 'snapshot' | 'extensions'>;
  manager: Pick<UpstreamManager, 'connection'>;
  catalog: Catalog;
  trust: Pick<ToolTrust, 'check'>;
  /** Each server's last tool list by its launch definition. */
  lists?: ServerToolLists;
  /** The user's confirmations that a tool only reads. */
  reads?: Pick<ReadConfirmations, 'isConfirmed'>;
  settings: Pick<Settings, 'trust' | 'intentDeclaration'>;
  workspaceFolder?: string;
  /** The server answered `initialize` with Grimoire's title: Grimoire itself (a URL of its own endpoint, or another Grimoire's). */
  isGrimoire?: (words: ServerWords) => boolean;
}

/**
 * The powers and their tools as last listed (seeded from the catalog, so powers never started
 * can be ranked). A listing goes through the catalog (changes recorded) and the pins (changed
 * tools held for review), one listing at a time per power. Emits 'listed' (power) after each.
 */
/** A configured power's tools for the token report; `direct`: the mcp.json VS Code also offers it from. */
export interface ConfiguredTools {
  power: string;
  tools: Tool[];
  listed: boolean;
  direct?: string;
}

/**
 * The token report's view of `powers`: each with its tools as last listed (`known`), the one shape the
 * gateway and `grimoire stats` count.
 */
export function configuredTools(
  powers: readonly PowerDefinition[],
  known: ReadonlyMap<string, Tool[]>,
): ConfiguredTools[] {
  return powers.map((power) => ({
    power: power.name,
    tools: known.get(power.name) ?? [],
    listed: known.has(power.name),
    ...(offeredDirectlyByVsCode(power) ? { direct: power.source.file } : {}),
  }));
}

export class PowerTools extends EventEmitter<{ listed: [power: string] }> {
  private readonly known = new Map<string, Tool[]>();
  private readonly listing = new Map<string, Promise<void>>();
  /** What each listed power's server said of itself. */
  private readonly words: Map<string, ServerWords>;
  private withWords?: { from: PowerDefinition[]; version: number; powers: PowerDefinition[] };
  /** Launch definitions looked up in the lists kept by launch definition (once each). */
  private readonly recalledHashes = new Set<string>();
  /**
   * Tool lists recalled by launch definition for powers never listed under their name: ranking
   * only. Such a power is not listed: activation, calls and read confirmations wait for its own listing.
   */
  private readonly recalled = new Map<string, Tool[]>();
  /** Powers whose server turned out to be Grimoire itself, by the server they start: left out. */
  private readonly itself = new Set<string>();
  private wordsVersion = 0;

  constructor(private readonly deps: PowerToolsDeps) {
    super();
    for (const [power, tools] of deps.catalog.all()) this.known.set(power, tools.map(asTool));
    this.words = deps.catalog.words();
  }

  /** The configured powers, each with what its server said of itself (its instructions the steering when it has none). */
  powers(): PowerDefinition[] {
    const from = this.deps.registry.snapshot().powers;
    if (this.withWords?.from !== from || this.withWords.version !== this.wordsVersion) {
      this.recallLists(from);
      const others = from.filter((power) => !this.itself.has(power.serverHash));
      this.withWords = {
        from,
        version: this.wordsVersion,
        powers: others.map((power) => withServerWords(power, this.words.get(power.name))),
      };
    }
    return this.withWords.powers;
  }

  /**
   * A power whose tools were never listed under its name, but whose launch definition was (under
   * another name, from another config): ranked on that list until its server is listed.
   */
  private recallLists(powers: readonly PowerDefinition[]): void {
    const lists = this.deps.lists;
    if (!lists) return;
    for (const power of powers) {
      if (this.known.has(power.name) || this.recalledHashes.has(power.serverHash)) continue;
      this.recalledHashes.add(power.serverHash);
      const last = lists.recall(power.serverHash);
      if (!last) continue;
      this.recalled.set(power.name, last.tools);
      if (!this.words.has(power.name)) this.words.set(power.name, last.words);
    }
  }

  power(name: string): PowerDefinition | undefined {
    return this.powers().find((power) => power.name === name);
  }

  /** The tools last listed, [] for a power never listed. */
  toolsOf(name: string): Tool[] {
    return this.known.get(name) ?? [];
  }

  /** The tools to rank a power by: as last listed, else as its launch definition listed them under another name. */
  rankingToolsOf(name: string): Tool[] {
    return this.known.get(name) ?? this.recalled.get(name) ?? [];
  }

  /** The power can be ranked on its tools: they were listed, or recalled by its launch definition. */
  rankable(name: string): boolean {
    return this.known.has(name) || this.recalled.has(name);
  }

  /** The power's tools have been listed (now or in an earlier run, through the catalog). */
  listed(name: string): boolean {
    return this.known.has(name);
  }

  /** The powers configured now that `usable` accepts, with their tools as last listed (none, `listed` false, when never listed). */
  configuredTools(usable: (name: string) => boolean): ConfiguredTools[] {
    return configuredTools(
      this.powers().filter((power) => usable(power.name)),
      this.known,
    );
  }

  /** The annotations validation trusts for a tool: the spell's, else the server's, else the user's confirmed read, else inferred. */
  annotationsOf(power: string, tool: Pick<Tool, 'name' | 'description' | 'annotations'>): EffectiveAnnotations {
    const override = this.overrideOf(power, tool.name);
    // The confirmation holds for the version listed now (its hash): the tool as last listed.
    const listed = this.deps.reads && this.known.get(power)?.find((t) => t.name === tool.name);
    const confirmed = !!listed && this.deps.reads!.isConfirmed(power, listed);
    return effectiveAnnotations(tool, override, this.deps.settings.intentDeclaration.inferAnnotations, confirmed);
  }

  /** The spell's annotation override of a tool, if any. */
  overrideOf(power: string, tool: string): ToolAnnotations | undefined {
    return this.deps.registry.extensions(power)?.annotations?.[tool];
  }

  /** A power's tools, listing them first (which starts the power) when they were never seen; `scope` as for refresh. */
  async ensureTools(name: string, scope?: CallScope): Promise<Tool[]> {
    if (!this.known.has(name)) await this.refresh(name, scope);
    return this.toolsOf(name);
  }

  /**
   * Lists a power's tools (one listing at a time per power) and checks them against the pins; calls
   * to the power wait for this after every start and list_changed (upstream/tool-check-gate.ts).
   * `scope`: the session whose activation or call asked for it (it gets what the server asks of a
   * client meanwhile); none for discovery and refreshes. A listing already running keeps its own.
   */
  refresh(name: string, scope?: CallScope): Promise<void> {
    const pending = this.listing.get(name);
    if (pending) return pending;
    const work = this.listAndCheck(name, scope).finally(() => this.listing.delete(name));
    this.listing.set(name, work);
    return work;
  }

  /**
   * Background discovery of a power's tools: stops the server afterwards unless it was running
   * or someone uses it now. A failed discovery is not retried in the background.
   */
  async discover(power: PowerDefinition, inUse: (name: string) => boolean): Promise<void> {
    const connection = this.deps.manager.connection(power);
    const wasRunning = connection.state === 'active';
    const stopUnlessWanted = (why: string) =>
      !wasRunning && !inUse(power.name) && connection.inFlight === 0 ? connection.stop(why) : undefined;
    await this.refresh(power.name).catch(async (error) => {
      await stopUnlessWanted('tools not discovered');
      throw error;
    });
    await stopUnlessWanted('tools discovered');
  }

  private async listAndCheck(name: string, scope: CallScope | undefined): Promise<void> {
    const power = this.power(name);
    if (!power) return;
    const connection = this.deps.manager.connection(power);
    const { tools, generation } = await connection.listTools(scope);
    const words = boundedWords(connection.serverWords?.() ?? {});
    if (this.deps.isGrimoire?.(words)) {
      this.itself.add(power.serverHash);
      this.wordsVersion += 1;
      await connection.stop('Grimoire itself');
      log.info(`'${name}' is left out: its server is Grimoire itself (${power.source.file})`);
      this.emit('listed', name);
      throw new Error(`'${name}' is Grimoire itself (${power.source.file}): a gateway is never a power behind itself.`);
    }
    const changes = this.deps.catalog.record(name, tools, Date.now(), words, connection.protocolVersion);
    this.deps.lists?.remember(power.serverHash, tools, words);
    this.words.set(name, words);
    this.wordsVersion += 1;
    this.known.set(name, tools);
    this.recalled.delete(name);
    if (changes.length > 0) log.info(`'${name}': ${changes.length} tool change(s) recorded in the catalog`);
    this.deps.trust.check(
      name,
      tools,
      newToolsPolicy(power, this.deps.settings.trust.newTools, this.deps.workspaceFolder),
    );
    connection.toolsChecked(generation);
    for (const problem of unknownHintTools(
      name,
      this.deps.registry.extensions(name),
      tools.map((t) => t.name),
    ))
      log.warn(`${power.source.file}: ${problem}`);
    this.emit('listed', name);
  }
}
