/**
 * Passes a power's notifications to a session: its log messages (at the level the session set)
 * and its prompt and resource list changes, when the power is active for the session or the
 * session has a request to it in flight. A change of the session's active powers is a list change too.
 */
import { EventEmitter } from 'node:events';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, logger } from '../log.js';
import type { PassthroughPorts } from './passthrough-ports.js';
import { activePowersOf, isActiveFor } from './session-powers.js';

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

export function forwardChildNotifications(server: Server, gateway: PassthroughPorts, sessionId: string): () => void {
  const hub = gateway.manager.features;
  const concerns = (power: string) => isActiveFor(gateway, sessionId, power) || hub.sessionIsCalling(power, sessionId);
  const quietly = (what: string) => (error: unknown) => log.debug(`${what} not sent to ${sessionId}: ${errorMessage(error)}`);

  const onLog = (power: string, params: LoggingMessageNotification['params']) => {
    if (!concerns(power) || !hub.wantsLog(sessionId, params.level)) return;
    server.sendLoggingMessage({ ...params, logger: params.logger ? `${power}/${params.logger}` : power }).catch(quietly('log message'));
  };
  const onPrompts = (power: string) => {
    if (isActiveFor(gateway, sessionId, power)) server.sendPromptListChanged().catch(quietly('prompts/list_changed'));
  };
  const onResources = (power: string) => {
    if (isActiveFor(gateway, sessionId, power)) server.sendResourceListChanged().catch(quietly('resources/list_changed'));
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
