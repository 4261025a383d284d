/** The hint network and the hints fired, as the protocol carries them. */
import type { HintEvents } from '../hints/hint-events.js';
import type { HintNetwork } from '../hints/hint-network.js';
import type { PowerDefinition } from '../powers/types.js';
import type { HintsPayload } from '../../protocol/records.js';
import type { HintsParams } from '../../protocol/extension-methods.js';

/** What the hints payload reads: the powers and which are active, the hint network, the hints fired. */
export interface HintsPorts {
  powers(): PowerDefinition[];
  isActive(name: string): boolean;
  hintNetwork(powers: string[]): Promise<HintNetwork>;
  hints: { events: Pick<HintEvents, 'followRates' | 'recent'> };
}

export const RECENT_HINTS = 30;
const MAX_RECENT = 500;

export function parseHintsParams(params: unknown): Required<HintsParams> {
  const p = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
  const scope = p.scope ?? 'active';
  if (scope !== 'active' && scope !== 'all')
    throw new Error(`scope must be 'active' or 'all'; got ${JSON.stringify(scope)}.`);
  const recent = p.recent ?? RECENT_HINTS;
  if (typeof recent !== 'number' || !Number.isInteger(recent) || recent < 0)
    throw new Error('recent must be a whole number of hints.');
  return { scope, recent: Math.min(recent, MAX_RECENT) };
}

export async function hintsPayload(ports: HintsPorts, params: Required<HintsParams>): Promise<HintsPayload> {
  const powers = ports
    .powers()
    .map((power) => power.name)
    .filter((name) => params.scope === 'all' || ports.isActive(name));
  const network = await ports.hintNetwork(powers);
  return {
    scope: params.scope,
    powers,
    nodes: network.nodes,
    edges: network.edges,
    followRates: await ports.hints.events.followRates(),
    recent: params.recent ? await ports.hints.events.recent(params.recent) : [],
  };
}
