/**
 * The active powers' resources and templates, passed through to their servers. A resource keeps
 * its server's URI unless two active powers list the same one; then each is listed as
 * `grimoire://power/<power>/<encoded uri>`. A session reads a URI only through a power active in it
 * (never a disabled one) that lists it, whose template it matches, or that linked to it in a result
 * made for that session; the qualified form is held to the same rule.
 */
import { ProtocolError, ProtocolErrorCode, UriTemplate, type Server } from '@modelcontextprotocol/server';
import type { ReadResourceResult, Resource, ResourceTemplate } from '../../util/mcp-types.js';
import { errorMessage, logger } from '../../log.js';
import { preview } from '../../../shared/preview.js';
import { childLists } from './child-lists.js';
import type { CallScope } from '../../upstream/client-features.js';
import { activePowersOf, type PassthroughPorts } from './passthrough-ports.js';

const log = logger('passthrough');
const PREFIX = 'grimoire://power/';
/** The MCP error for an unknown resource (the spec's -32002). */
export const RESOURCE_NOT_FOUND = -32002;

export interface ResourceTarget {
  power: string;
  /** The URI the power's server knows. */
  uri: string;
  /** The URI the agent used. */
  asked: string;
}

export function qualifiedUri(power: string, uri: string): string {
  return `${PREFIX}${encodeURIComponent(power)}/${encodeURIComponent(uri)}`;
}

/** The power and URI of a `grimoire://power/...` URI, only in the one form qualifiedUri writes (no raw '/', '..' or other spelling). */
function parseQualified(uri: string): { power: string; uri: string } | undefined {
  if (!uri.startsWith(PREFIX)) return undefined;
  const rest = uri.slice(PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  try {
    const parsed = { power: decodeURIComponent(rest.slice(0, slash)), uri: decodeURIComponent(rest.slice(slash + 1)) };
    return qualifiedUri(parsed.power, parsed.uri) === uri ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function exposedResources(
  gateway: PassthroughPorts,
  sessionId: string,
): Promise<{ power: string; resource: Resource; exposed: Resource }[]> {
  const lists = childLists(gateway);
  const perPower = await Promise.all(
    activePowersOf(gateway, sessionId).map(async (power) => ({
      power,
      resources: await lists.list('resources', power),
    })),
  );
  const owners = new Map<string, number>();
  for (const { resources } of perPower)
    for (const uri of new Set(resources.map((r) => r.uri))) owners.set(uri, (owners.get(uri) ?? 0) + 1);
  return perPower.flatMap(({ power, resources }) =>
    resources.map((resource) => ({
      power,
      resource,
      exposed: {
        ...resource,
        uri: (owners.get(resource.uri) ?? 0) > 1 ? qualifiedUri(power, resource.uri) : resource.uri,
        title: `${power}: ${resource.title ?? resource.name}`,
      },
    })),
  );
}

export async function exposedTemplates(
  gateway: PassthroughPorts,
  sessionId: string,
): Promise<{ power: string; template: ResourceTemplate; exposed: ResourceTemplate }[]> {
  const lists = childLists(gateway);
  const perPower = await Promise.all(
    activePowersOf(gateway, sessionId).map(async (power) => ({
      power,
      templates: await lists.list('templates', power),
    })),
  );
  return perPower.flatMap(({ power, templates }) =>
    templates.map((template) => ({
      power,
      template,
      exposed: { ...template, title: `${power}: ${template.title ?? template.name}` },
    })),
  );
}

/**
 * The powers that may answer a read of `uri` for this session: among the session's active powers
 * (never a disabled one), those that list it, that linked to it in a result made for this session,
 * or whose template it matches (without a dot segment, which would leave the path the template names).
 */
async function ownersOf(
  gateway: PassthroughPorts,
  sessionId: string,
  uri: string,
  among?: string,
): Promise<{ listed: string[]; linked: string[]; templated: string[] }> {
  const active = activePowersOf(gateway, sessionId).filter((power) => among === undefined || power === among);
  if (active.length === 0) return { listed: [], linked: [], templated: [] };
  const lists = childLists(gateway);
  const listed = (
    await Promise.all(
      active.map(async (power) => ((await lists.list('resources', power)).some((r) => r.uri === uri) ? [power] : [])),
    )
  ).flat();
  const linked = gateway.ports.manager.features.linkedPowers(sessionId, uri).filter((power) => active.includes(power));
  const templated = hasDotSegment(uri)
    ? []
    : (
        await Promise.all(
          active.map(async (power) =>
            (await lists.list('templates', power)).some((t) => matches(t.uriTemplate, uri)) ? [power] : [],
          ),
        )
      ).flat();
  return { listed, linked, templated };
}

/** The power a URI belongs to, for the session; throws -32002 when none or several could. */
export async function resolveResource(
  gateway: PassthroughPorts,
  sessionId: string,
  asked: string,
): Promise<ResourceTarget> {
  const qualified = parseQualified(asked);
  if (qualified) {
    const owners = await ownersOf(gateway, sessionId, qualified.uri, qualified.power);
    if (owners.listed.length + owners.linked.length + owners.templated.length > 0) return { ...qualified, asked };
    throw notFound(gateway, sessionId, asked);
  }
  const { listed, linked, templated } = await ownersOf(gateway, sessionId, asked);
  if (listed.length === 1) return { power: listed[0], uri: asked, asked };
  if (listed.length > 1) {
    throw new ProtocolError(
      RESOURCE_NOT_FOUND,
      `Resource '${asked}' is offered by ${listed.join(' and ')}: read it as ${listed.map((p) => qualifiedUri(p, asked)).join(' or ')}.`,
      { uri: asked },
    );
  }
  // The power that linked to it last (a link is the session's own result: that power answered it).
  if (linked.length > 0) return { power: linked[linked.length - 1], uri: asked, asked };
  if (templated.length === 1) return { power: templated[0], uri: asked, asked };
  if (templated.length > 1) {
    throw new ProtocolError(
      RESOURCE_NOT_FOUND,
      `Resource '${asked}' matches templates of ${templated.join(' and ')}: ` +
        `read it as ${templated.map((p) => qualifiedUri(p, asked)).join(' or ')}.`,
      { uri: asked },
    );
  }
  throw notFound(gateway, sessionId, asked);
}

function notFound(gateway: PassthroughPorts, sessionId: string, asked: string): ProtocolError {
  const active = activePowersOf(gateway, sessionId);
  return new ProtocolError(
    RESOURCE_NOT_FOUND,
    `Resource '${preview(asked, 200)}' was not found: it is not listed by a power active in this session ` +
      `(${active.join(', ') || 'none'}), nor matched by one of its templates, ` +
      `nor linked from one of this session's results.`,
    { uri: preview(asked, 200) },
  );
}

/** A '.' or '..' path segment, raw or percent-encoded (even twice). */
function hasDotSegment(uri: string): boolean {
  let text = uri;
  for (let i = 0; i < 3; i++) {
    if (/(^|[/\\])\.{1,2}([/\\?#]|$)/.test(text)) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      return /%2e/i.test(text);
    }
    if (decoded === text) return false;
    text = decoded;
  }
  return true;
}

function matches(template: string, uri: string): boolean {
  try {
    return new UriTemplate(template).match(uri) !== null;
  } catch {
    return false;
  }
}

/** Who subscribed to what, across sessions: a server is unsubscribed once nobody wants the URI. */
class Subscriptions {
  private readonly holders = new Map<string, Set<string>>();

  add(target: ResourceTarget, sessionId: string): boolean {
    const key = `${target.power}\u0000${target.uri}`;
    const set = this.holders.get(key) ?? new Set();
    const first = set.size === 0;
    set.add(sessionId);
    this.holders.set(key, set);
    return first;
  }

  /** True when the session was the last holder. */
  remove(power: string, uri: string, sessionId: string): boolean {
    const key = `${power}\u0000${uri}`;
    const set = this.holders.get(key);
    if (!set?.delete(sessionId)) return false;
    if (set.size > 0) return false;
    this.holders.delete(key);
    return true;
  }

  urisOf(power: string): string[] {
    return [...this.holders.keys()]
      .filter((key) => key.startsWith(`${power}\u0000`))
      .map((key) => key.slice(power.length + 1));
  }
}

const subscriptionsByGateway = new WeakMap<PassthroughPorts, Subscriptions>();

function subscriptions(gateway: PassthroughPorts): Subscriptions {
  let subs = subscriptionsByGateway.get(gateway);
  if (!subs) {
    const created = new Subscriptions();
    subs = created;
    subscriptionsByGateway.set(gateway, created);
    // A restarted server forgot its subscriptions: make them again.
    gateway.ports.manager.features.on('connected', (power) => {
      const connection = childLists(gateway).connection(power);
      for (const uri of created.urisOf(power)) {
        void connection
          ?.request((client) => client.subscribeResource({ uri }))
          .catch((error) => log.debug(`re-subscribe ${uri}: ${errorMessage(error)}`));
      }
    });
  }
  return subs;
}

function rewriteContents(result: ReadResourceResult, target: ResourceTarget): ReadResourceResult {
  if (target.asked === target.uri) return result;
  return {
    ...result,
    contents: result.contents.map((content) =>
      content.uri === target.uri ? { ...content, uri: target.asked } : content,
    ),
  };
}

function connectionOf(gateway: PassthroughPorts, power: string) {
  const connection = childLists(gateway).connection(power);
  if (!connection) throw new ProtocolError(RESOURCE_NOT_FOUND, `Power '${power}' is no longer configured.`);
  return connection;
}

/** The list and read handlers alone (a 2026-07-28 request's server: that revision has no resource subscriptions). */
export function registerResourceReads(
  server: Server,
  gateway: PassthroughPorts,
  sessionId: string,
  scope: CallScope,
): void {
  server.setRequestHandler('resources/list', async () => ({
    resources: (await exposedResources(gateway, sessionId)).map((r) => r.exposed),
  }));
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: (await exposedTemplates(gateway, sessionId)).map((t) => t.exposed),
  }));
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const target = await resolveResource(gateway, sessionId, request.params.uri);
    const result = await connectionOf(gateway, target.power).request(
      (client) => client.readResource({ ...request.params, uri: target.uri }, { signal: ctx.mcpReq.signal }),
      scope,
    );
    return rewriteContents(result, target);
  });
}

/** Registers the resource handlers on a session's server, subscriptions included; returns what to undo when it closes. */
export function registerResources(
  server: Server,
  gateway: PassthroughPorts,
  sessionId: string,
  scope: CallScope,
): () => void {
  const lists = childLists(gateway);
  const subs = subscriptions(gateway);
  /** This session's subscriptions: server-side key -> the URI the agent used. */
  const mine = new Map<string, ResourceTarget>();
  registerResourceReads(server, gateway, sessionId, scope);
  server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    const target = await resolveResource(gateway, sessionId, request.params.uri);
    const connection = connectionOf(gateway, target.power);
    await connection.request(async (client) => {
      if (!client.getServerCapabilities()?.resources?.subscribe) {
        throw new ProtocolError(
          ProtocolErrorCode.MethodNotFound,
          `Power '${target.power}' does not offer resource subscriptions.`,
        );
      }
      if (subs.add(target, sessionId))
        await client.subscribeResource({ ...request.params, uri: target.uri }, { signal: ctx.mcpReq.signal });
    });
    mine.set(`${target.power}\u0000${target.uri}`, target);
    return {};
  });
  const unsubscribe = async (target: ResourceTarget) => {
    mine.delete(`${target.power}\u0000${target.uri}`);
    if (subs.remove(target.power, target.uri, sessionId)) {
      await lists.connection(target.power)?.request((client) => client.unsubscribeResource({ uri: target.uri }));
    }
  };
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    const target =
      [...mine.values()].find((t) => t.asked === request.params.uri) ??
      (await resolveResource(gateway, sessionId, request.params.uri));
    await unsubscribe(target);
    return {};
  });

  const onUpdated = (power: string, uri: string) => {
    const target = mine.get(`${power}\u0000${uri}`);
    if (target)
      server
        .sendResourceUpdated({ uri: target.asked })
        .catch((error) => log.debug(`resources/updated not sent to ${sessionId}: ${errorMessage(error)}`));
  };
  gateway.ports.manager.features.on('resourceUpdated', onUpdated);
  return () => {
    gateway.ports.manager.features.off('resourceUpdated', onUpdated);
    for (const target of [...mine.values()]) void unsubscribe(target).catch(() => undefined);
  };
}
