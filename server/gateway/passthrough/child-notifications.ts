/**
 * Passes a power's notifications to a session: its log messages (at the level the session set,
 * masked as the gateway's own log is, a private key sent line by line included)
 * and its prompt and resource list changes, when the power is active for the session or the
 * session has a request to it in flight. A change of the session's active powers is a list change too.
 */
import { EventEmitter } from 'node:events';
import type { Server } from '@modelcontextprotocol/server';
import type { LoggingMessageNotification } from '../../util/mcp-types.js';
import { errorMessage, logger } from '../../log.js';
import { activePowersOf, isActiveFor, type PassthroughPorts } from './passthrough-ports.js';
import { maskDeep, maskSecrets, SecretLines } from '../../util/secrets.js';

const activationEvents = new WeakMap<PassthroughPorts, EventEmitter<{ changed: [] }>>();

/** One listener on the gateway, fanned out to every session: a change that may have changed the active powers. */
function activationChanges(gateway: PassthroughPorts): EventEmitter<{ changed: [] }> {
  let events = activationEvents.get(gateway);
  if (!events) {
    const created = new EventEmitter<{ changed: [] }>();
    created.setMaxListeners(0);
    gateway.on('toolsChanged', () => created.emit('changed'));
    gateway.on('powerState', () => created.emit('changed'));
    activationEvents.set(gateway, created);
    events = created;
  }
  return events;
}

const log = logger('session');

/** Where a session's notifications go: its SDK Server, or (a modern HTTP user) the user's listen streams. */
export type SessionNotifier = Pick<
  Server,
  'sendLoggingMessage' | 'sendPromptListChanged' | 'sendResourceListChanged'
> & { readonly transport?: unknown };

export function forwardChildNotifications(
  server: SessionNotifier,
  gateway: PassthroughPorts,
  sessionId: string,
): () => void {
  const hub = gateway.ports.manager.features;
  const concerns = (power: string) => isActiveFor(gateway, sessionId, power) || hub.sessionIsCalling(power, sessionId);
  const quietly = (what: string) => (error: unknown) =>
    log.debug(`${what} not sent to ${sessionId}: ${errorMessage(error)}`);

  const lines = new Map<string, SecretLines>();
  const onLog = (power: string, params: LoggingMessageNotification['params']) => {
    // Every line goes through the power's line masking, sent or not: a key's BEGIN line may be one this session does not get.
    let secrets = lines.get(power);
    if (!secrets) lines.set(power, (secrets = new SecretLines()));
    const data = typeof params.data === 'string' ? secrets.mask(params.data) : maskDeep(params.data);
    if (!concerns(power) || !hub.wantsLog(sessionId, params.level)) return;
    const logger = params.logger ? `${power}/${maskSecrets(params.logger)}` : power;
    server.sendLoggingMessage({ ...params, data, logger }).catch(quietly('log message'));
  };
  const onPrompts = (power: string) => {
    if (isActiveFor(gateway, sessionId, power)) server.sendPromptListChanged().catch(quietly('prompts/list_changed'));
  };
  const onResources = (power: string) => {
    if (isActiveFor(gateway, sessionId, power))
      server.sendResourceListChanged().catch(quietly('resources/list_changed'));
  };
  let activeNow = activePowersOf(gateway, sessionId).join('\u0000');
  const onActivation = () => {
    const next = activePowersOf(gateway, sessionId).join('\u0000');
    if (next === activeNow) return;
    activeNow = next;
    if (!server.transport) return;
    server.sendPromptListChanged().catch(quietly('prompts/list_changed'));
    server.sendResourceListChanged().catch(quietly('resources/list_changed'));
  };
  hub.on('log', onLog);
  hub.on('promptsChanged', onPrompts);
  hub.on('resourcesChanged', onResources);
  activationChanges(gateway).on('changed', onActivation);
  return () => {
    hub.off('log', onLog);
    hub.off('promptsChanged', onPrompts);
    hub.off('resourcesChanged', onResources);
    activationChanges(gateway).off('changed', onActivation);
  };
}
