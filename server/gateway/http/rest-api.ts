import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseActivityFilter } from '../../activity/activity-query.js';
import { errorMessage } from '../../log.js';
import { StoreUnavailableError } from '../../store/store-interface.js';
import { ForbiddenError, requireReviewer, type Identity } from '../../users/identity.js';
import { preview } from '../../../shared/preview.js';
import { maskDeep } from '../../util/secrets.js';
import type { GatewayPorts } from '../ports.js';

/** What the REST API reads and decides through. */
export interface RestPorts {
  ports: Pick<GatewayPorts, 'activity' | 'trust' | 'launches' | 'power' | 'powers' | 'readCandidates' | 'confirmReads'>;
}
import { readJsonBody } from './http-body.js';
import { splitQualifiedName } from '../tool-names.js';
import { toolReviewInfo } from '../../trust/review-info.js';
import { LaunchChangedError } from '../../trust/launch-approvals.js';

/**
 * The REST API beside /mcp, behind the same bearer tokens:
 * GET  /api/v1/activity?user=&intentType=&status=&power=&tool=&since=&until=&limit=   calls as protocol ActivityInfo records
 * GET  /api/v1/tools/changes?power=      tools held for review (any user)
 * POST /api/v1/tools/approve {tool: "power:tool"} | {power}   (the admin token only: identity.ts)
 * POST /api/v1/tools/reject  {tool: "power:tool"}             (the admin token only)
 * GET  /api/v1/powers/launches           servers waiting for the user's approval to run, with their command
 * POST /api/v1/powers/approve {power, hash?}   approve a power's launch (the admin token only)
 * GET  /api/v1/tools/reads               tools believed to only read that no annotation declares (any user)
 * POST /api/v1/tools/confirm-read {tools: ["power:tool", ...]} | {all: true}   (the admin token only)
 * Resolves true when it answered the request.
 */
export async function handleRestApi(
  gateway: RestPorts,
  request: IncomingMessage,
  response: ServerResponse,
  identity: Identity,
): Promise<boolean> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (!url.pathname.startsWith('/api/')) return false;
  const route = `${request.method} ${url.pathname}`;
  try {
    switch (route) {
      case 'GET /api/v1/activity':
        return send(response, 200, {
          activity: await gateway.ports.activity.query(parseActivityFilter(Object.fromEntries(url.searchParams))),
        });
      case 'GET /api/v1/tools/changes':
        return send(response, 200, {
          changes: maskDeep(
            gateway.ports.trust.changes(url.searchParams.get('power') ?? undefined).map(toolReviewInfo),
          ),
        });
      case 'GET /api/v1/tools/reads':
        return send(response, 200, { reads: readsInfo(gateway) });
      case 'POST /api/v1/tools/confirm-read':
        return await confirmRead(gateway, request, response, identity);
      case 'POST /api/v1/tools/approve':
      case 'POST /api/v1/tools/reject':
        return await decide(
          gateway,
          request,
          response,
          identity,
          url.pathname.endsWith('approve') ? 'approve' : 'reject',
        );
      case 'GET /api/v1/powers/launches':
        return send(response, 200, { waiting: waitingLaunches(gateway) });
      case 'POST /api/v1/powers/approve':
        return await approveLaunchOver(gateway, request, response, identity);
      default:
        return send(response, 404, {
          error: `No endpoint ${request.method} ${preview(url.pathname, 80)}: try GET /api/v1/activity or GET /api/v1/tools/changes.`,
        });
    }
  } catch (error) {
    if (error instanceof ForbiddenError) return send(response, 403, { error: error.message });
    if (error instanceof StoreUnavailableError) return send(response, 503, { error: error.message });
    return send(response, 400, { error: errorMessage(error) });
  }
}

async function decide(
  gateway: RestPorts,
  request: IncomingMessage,
  response: ServerResponse,
  identity: Identity,
  action: 'approve' | 'reject',
): Promise<true> {
  requireReviewer(identity, action === 'approve' ? 'Approving a tool change' : 'Rejecting a tool change');
  const body = await readJsonBody(request, 64 * 1024);
  if (body.kind !== 'json' || typeof body.value !== 'object' || body.value === null) {
    return send(response, 400, {
      error: 'Send a JSON body: {"tool": "power:tool"}, or {"power": "name"} to approve all of its held tools.',
    });
  }
  const { tool, power } = body.value as { tool?: unknown; power?: unknown };
  const target = typeof tool === 'string' ? splitQualifiedName(tool) : undefined;
  if (action === 'approve' && !target && typeof power === 'string')
    return send(response, 200, { approved: maskDeep(gateway.ports.trust.approve(power).map(toolReviewInfo)) });
  if (!target)
    return send(response, 400, {
      error: `"tool" must name a tool as "power:tool"${action === 'approve' ? ', or give "power"' : ''}.`,
    });
  const decided =
    action === 'approve'
      ? gateway.ports.trust.approve(target.power, target.tool)
      : [gateway.ports.trust.reject(target.power, target.tool)].flatMap((r) => (r ? [r] : []));
  if (decided.length === 0)
    return send(response, 404, {
      error: `No change of '${preview(`${target.power}:${target.tool}`, 120)}' awaits review.`,
    });
  return send(response, 200, {
    [action === 'approve' ? 'approved' : 'rejected']: maskDeep(decided.map(toolReviewInfo)),
  });
}

function waitingLaunches(
  gateway: RestPorts,
): { power: string; origin: string; command: string; hash: string; file: string }[] {
  return gateway.ports.powers().flatMap((power) => {
    const wait = gateway.ports.launches.waiting(power);
    return wait ? [{ power: power.name, ...wait, file: power.source.file }] : [];
  });
}

async function approveLaunchOver(
  gateway: RestPorts,
  request: IncomingMessage,
  response: ServerResponse,
  identity: Identity,
): Promise<true> {
  requireReviewer(identity, "Approving a power's launch");
  const body = await readJsonBody(request, 64 * 1024);
  const value =
    body.kind === 'json' && typeof body.value === 'object' && body.value !== null
      ? (body.value as { power?: unknown; hash?: unknown })
      : undefined;
  if (typeof value?.power !== 'string' || (value.hash !== undefined && typeof value.hash !== 'string')) {
    return send(response, 400, {
      error:
        'Send a JSON body: {"power": "name"}, with "hash" (from GET /api/v1/powers/launches) to approve only the launch you saw.',
    });
  }
  const power = gateway.ports.power(value.power);
  if (!power) return send(response, 404, { error: `No power '${preview(value.power, 120)}' is configured.` });
  try {
    const approved = gateway.ports.launches.approve(power, identity.user, value.hash as string | undefined);
    if (!approved) return send(response, 404, { error: `Power '${power.name}' waits for no approval to run.` });
    return send(response, 200, { approved: { power: power.name, ...approved } });
  } catch (error) {
    if (error instanceof LaunchChangedError) return send(response, 409, { error: error.message });
    throw error;
  }
}

function readsInfo(gateway: RestPorts): Array<{ power: string; tool: string; description: string; status: string }> {
  return gateway.ports
    .readCandidates()
    .map(({ power, tool, description, status }) => ({ power, tool, description, status }));
}

/** In a team, the admin decides which tools count as reads: one decision for every user, never through an MCP token. */
async function confirmRead(
  gateway: RestPorts,
  request: IncomingMessage,
  response: ServerResponse,
  identity: Identity,
): Promise<true> {
  requireReviewer(identity, 'Confirming a tool read-only');
  const body = await readJsonBody(request, 64 * 1024);
  const value =
    body.kind === 'json' && typeof body.value === 'object' && body.value !== null
      ? (body.value as { tools?: unknown; all?: unknown })
      : undefined;
  const names = Array.isArray(value?.tools) ? value.tools : undefined;
  const targets =
    value?.all === true
      ? (['all'] as const)
      : names?.map((name) => (typeof name === 'string' ? splitQualifiedName(name) : undefined));
  if (!targets || targets.length === 0 || targets.some((t) => t === undefined)) {
    return send(response, 400, {
      error:
        'Send a JSON body: {"tools": ["power:tool", ...]}, or {"all": true} to confirm every tool believed to only read.',
    });
  }
  const outcome = gateway.ports.confirmReads(targets as Parameters<RestPorts['ports']['confirmReads']>[0]);
  return send(response, outcome.refused.length && !outcome.confirmed.length ? 409 : 200, {
    confirmed: outcome.confirmed.map((c) => `${c.power}:${c.tool}`),
    ...(outcome.refused.length ? { refused: outcome.refused } : {}),
  });
}

function send(response: ServerResponse, status: number, body: unknown): true {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
  return true;
}
