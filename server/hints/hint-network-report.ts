import { callsPerTool } from '../activity/activity-table.js';
import type { SpellExtensions } from '../powers/spell-schema.js';
import type { Store } from '../store/store.js';
import type { HintEvents } from './hint-events.js';
import { hintNetwork, type HintNetwork } from './hint-network.js';
import type { LearnedTransitions } from './learned-transitions.js';

/** The hint network of these powers from the store: learned edges, call counts and follow rates. */
export async function hintNetworkReport(
  store: Store,
  powers: Array<{ name: string; tools: string[]; extensions?: SpellExtensions }>,
  learned: { transitions: LearnedTransitions; events: HintEvents },
  minSupport: number,
): Promise<HintNetwork> {
  const calls = await callsPerTool(store);
  await learned.transitions.refresh();
  return hintNetwork(powers, learned.transitions.all(), calls, await learned.events.followRates(), minSupport);
}
