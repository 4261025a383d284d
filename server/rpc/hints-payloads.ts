/** The hint network and the hints fired, as the protocol carries them. */
import type { Gateway } from '../gateway/gateway.js';
import type { HintsParams, HintsPayload } from './protocol.js';

export const RECENT_HINTS = 30;
const MAX_RECENT = 500;

export function parseHintsParams(params: unknown): Required<HintsParams> {
  const p = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
  const scope = p.scope ?? 'active';
  if (scope !== 'active' && scope !== 'all') throw new Error(`scope must be 'active' or 'all'; got ${JSON.stringify(scope)}.`);
  const recent = p.recent ?? RECENT_HINTS;
  if (typeof recent !== 'number' || !Number.isInteger(recent) || recent < 0) throw new Error('recent must be a whole number of hints.');
  return { scope, recent: Math.min(recent, MAX_RECENT) };
}

export function hintsPayload(gateway: Gateway, params: Required<HintsParams>): HintsPayload {
  const powers = gateway
    .powers()
    .map((power) => power.name)
    .filter((name) => params.scope === 'all' || gateway.isActive(name));
  const network = gateway.hintNetwork(powers);
  return {
    scope: params.scope,
    powers,
    nodes: network.nodes,
    edges: network.edges,
    followRates: gateway.hints.events.followRates(),
    recent: params.recent
      ? gateway.hints.events.recent(params.recent)
      : [],
  };
}
