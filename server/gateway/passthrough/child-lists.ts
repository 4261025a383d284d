/** What each power's server lists besides tools (prompts, resources, templates), cached until it says they changed. */
import type { Client } from '@modelcontextprotocol/client';
import type { Prompt, Resource, ResourceTemplate } from '../../util/mcp-types.js';
import { errorMessage, logger } from '../../log.js';
import type { PowerConnection } from '../../upstream/connection.js';
import type { PassthroughPorts } from './passthrough-ports.js';

const log = logger('passthrough');

type Kind = 'prompts' | 'resources' | 'templates';
type Item = { prompts: Prompt; resources: Resource; templates: ResourceTemplate };

export class ChildLists {
  private readonly cache = new Map<string, Promise<unknown[]>>();

  constructor(private readonly gateway: PassthroughPorts) {
    const hub = gateway.ports.manager.features;
    hub.on('promptsChanged', (power) => this.cache.delete(`prompts\u0000${power}`));
    hub.on('resourcesChanged', (power) => {
      this.cache.delete(`resources\u0000${power}`);
      this.cache.delete(`templates\u0000${power}`);
    });
    hub.on('connected', (power) => {
      for (const kind of ['prompts', 'resources', 'templates']) this.cache.delete(`${kind}\u0000${power}`);
    });
  }

  /** The power's connection (created on first use), or undefined when the power is gone. */
  connection(power: string): PowerConnection | undefined {
    const definition = this.gateway.ports.power(power);
    return definition ? this.gateway.ports.manager.connection(definition) : undefined;
  }

  /** The power's items of one kind; empty when its server does not offer them or cannot start. */
  async list<K extends Kind>(kind: K, power: string): Promise<Item[K][]> {
    const key = `${kind}\u0000${power}`;
    let entry = this.cache.get(key);
    if (!entry) {
      entry = this.fetch(kind, power);
      this.cache.set(key, entry);
      entry.catch(() => this.cache.get(key) === entry && this.cache.delete(key));
    }
    try {
      return (await entry) as Item[K][];
    } catch (error) {
      log.warn(`could not list the ${kind} of '${power}': ${errorMessage(error)}`);
      return [];
    }
  }

  private async fetch(kind: Kind, power: string): Promise<unknown[]> {
    const connection = this.connection(power);
    if (!connection) return [];
    return connection.request(async (client) => {
      const offered = client.getServerCapabilities();
      if (kind === 'prompts' ? !offered?.prompts : !offered?.resources) return [];
      return paginate((cursor) => page(client, kind, cursor));
    });
  }
}

async function page(
  client: Client,
  kind: Kind,
  cursor: string | undefined,
): Promise<{ items: unknown[]; nextCursor?: string }> {
  const params = cursor ? { cursor } : undefined;
  if (kind === 'prompts') {
    const result = await client.listPrompts(params);
    return { items: result.prompts, nextCursor: result.nextCursor };
  }
  if (kind === 'resources') {
    const result = await client.listResources(params);
    return { items: result.resources, nextCursor: result.nextCursor };
  }
  if (kind !== 'templates') throw new Error(`no list for '${kind satisfies never}'`);
  const result = await client.listResourceTemplates(params);
  return { items: result.resourceTemplates, nextCursor: result.nextCursor };
}

async function paginate(
  next: (cursor: string | undefined) => Promise<{ items: unknown[]; nextCursor?: string }>,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  do {
    const result = await next(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
  } while (cursor);
  return items;
}

const byGateway = new WeakMap<PassthroughPorts, ChildLists>();

export function childLists(gateway: PassthroughPorts): ChildLists {
  let lists = byGateway.get(gateway);
  if (!lists) {
    lists = new ChildLists(gateway);
    byGateway.set(gateway, lists);
  }
  return lists;
}
