/**
 * How the gateway's parts answer what happens to the powers: a server's state change, a tool
 * list that changed, tools held for review, a reload of the spells, a finished call to learn from.
 * The composition root wires these once; none of them is on a call's answer path.
 */
import type { EventEmitter } from 'node:events';
import type { ActivityInfo } from '../../protocol/records.js';
import type { EventLog } from '../activity/event-log.js';
import type { PowerTools } from '../catalog/power-tools.js';
import type { RegistryChange } from '../powers/registry.js';
import type { LearnedRequests } from '../ranking/learned-requests.js';
import type { Review } from '../trust/pins.js';
import type { PowerStateChange } from '../../protocol/records.js';
import type { UpstreamManager } from '../upstream/manager.js';
import { errorMessage, logger } from '../log.js';
import { maskSecrets } from '../util/secrets.js';
import type { Activation } from './activation.js';
import type { GatewayEvents } from './ports.js';
import type { SessionRegistry } from './sessions/session-registry.js';

const log = logger('gateway');

export interface ReactionParts {
  tools: PowerTools;
  activation: Activation;
  sessions: Pick<SessionRegistry, 'tell'>;
  events: EventLog;
  manager: Pick<UpstreamManager, 'sync'>;
  notices: EventEmitter<GatewayEvents>;
  reindex: () => void;
}

/** Keeps every state change of a power in the event log and passes it on ('powerState'). */
export function onPowerState(parts: ReactionParts, change: PowerStateChange): void {
  if (change.state === 'stopping') return;
  // A (re)started server may offer other tools than before: list them again, pins decide.
  if (change.state === 'active' && parts.tools.listed(change.power))
    void parts.tools
      .refresh(change.power)
      .catch((error) => log.warn(`'${change.power}': tools not listed again: ${errorMessage(error)}`));
  if (change.state === 'crashed')
    parts.sessions.tell([change.power], maskSecrets(`Power '${change.power}' ${change.detail ?? 'crashed'}`));
  try {
    parts.events.record(`power.${change.state}`, change.power, change.detail ?? null);
  } catch (error) {
    log.warn(`could not record the state of '${change.power}': ${errorMessage(error)}`);
  }
  parts.notices.emit('powerState', change);
}

/** Tools held for review: logged, told to the sessions that use their power, passed on ('toolsQuarantined'). */
export function onQuarantined(parts: ReactionParts, reviews: Review[]): void {
  const names = reviews.map((r) => `${r.power}:${r.tool}`).join(', ');
  log.warn(`held for review (changed or new since approved): ${names}; see 'grimoire tools changes'`);
  parts.sessions.tell(
    new Set(reviews.map((r) => r.power)),
    `Tools held for the user's review (they changed since approved): ${names}`,
  );
  parts.notices.emit('toolsQuarantined', reviews);
}

/** A reload: removed powers leave every session, servers follow their spells, new powers are discovered. */
export async function onRegistryChange(
  parts: ReactionParts,
  change: RegistryChange,
  discover: (added: RegistryChange['added'][number]) => void,
): Promise<void> {
  parts.activation.forget(change.removed.map((removed) => removed.name));
  try {
    await parts.manager.sync(change.snapshot.powers);
  } catch (error) {
    log.warn(`reload: ${errorMessage(error)}`);
  }
  parts.reindex();
  parts.activation.updateExposure();
  for (const added of change.added) discover(added);
}

/** After the answer is on its way: a successful call's request joins its power's search document. */
export function learnFromCall(
  learned: LearnedRequests,
  enabled: () => boolean,
  reindex: () => void,
  call: ActivityInfo,
  credited: () => Promise<void>,
): void {
  // Most calls come from sessions the resolver never answered: nothing to learn, nothing to schedule.
  if (!enabled()) return;
  setImmediate(() => {
    // After the session's credits (markUsed) so far are written: the call's use of an answer is then known.
    credited()
      .then(() => learned.learnFromCall(call))
      .then((learnedOne) => {
        if (learnedOne) reindex();
      })
      .catch((error) =>
        log.warn(`could not learn from the call to ${call.power}:${call.tool}: ${errorMessage(error)}`),
      );
  });
}
