/**
 * A 2026-07-28 client's tools/call: through the input bridge (a power's question comes back as
 * `input_required`, the client's retry answers it), as a task once it outlasts the bound when the
 * client declared the tasks extension, and with the shared user state written before the answer
 * leaves (shared-user-state.ts) when replicas share it.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  type ClientCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { errorMessage, logger } from '../../log.js';
import { Cancellation } from '../../util/cancellation.js';
import type { CallScope } from '../../upstream/client-features.js';
import type { Gateway } from '../gateway.js';
import { declaresTasks, type CallTasks } from './call-tasks.js';
import type { InputBridge } from './input-bridge.js';
import { withNamedToolSchemas } from './modern-era.js';
import type { SharedSnapshot, SharedUserState } from './shared-user-state.js';

const log = logger('session');

/** Whose calls these are and what they go through. */
export interface ModernCaller {
  sessionId: string;
  bridge: InputBridge;
  tasks: CallTasks;
  /** Present when the state is shared across replicas. */
  shared?: SharedUserState;
  /** Records what a request declared it can do (the caller's union). */
  declare(capabilities: ClientCapabilities | undefined): void;
}

export type ModernCall = (
  name: string,
  args: Record<string, unknown>,
  ctx: ServerContext,
  onprogress: CallScope['onprogress'],
) => Promise<ReturnType<typeof withNamedToolSchemas>>;

export function modernCallHandler(gateway: Gateway, caller: ModernCaller): ModernCall {
  const { sessionId, bridge, tasks, shared } = caller;
  const recordShared = (before: SharedSnapshot | undefined) =>
    before
      ? shared!
          .record(sessionId, before)
          .catch((error) => log.warn(`the session state of ${sessionId} was not stored: ${errorMessage(error)}`))
      : undefined;
  return async (name, args, ctx, onprogress) => {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const requested = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    caller.declare(requested);
    // A call of a client that declared the tasks extension answers with a task once it outlasts the bound (0: never).
    const bound = gateway.ports.settings.sessions.taskAfterMs;
    const taskAfterMs = bound > 0 && declaresTasks(requested) ? bound : undefined;
    const state = ctx.mcpReq.requestState();
    const cancellation = new Cancellation();
    const before = shared?.snapshot(sessionId);
    const outcome = bridge.knows(state)
      ? await bridge.resume(sessionId, state, ctx.mcpReq.inputResponses, ctx.mcpReq.signal, taskAfterMs)
      : await bridge.start(
          sessionId,
          () => gateway.callTool(name, args, { sessionId, cancellation, onprogress }),
          (reason) => cancellation.abort(reason),
          ctx.mcpReq.signal,
          taskAfterMs,
        );
    await recordShared(before);
    if ('result' in outcome) return withNamedToolSchemas(gateway.ports, name, outcome.result);
    if ('running' in outcome) {
      // A caller whose state replicas share has its tasks shared too.
      const task = tasks.create(
        sessionId,
        outcome.running,
        (result) => {
          void recordShared(before);
          return withNamedToolSchemas(gateway.ports, name, result);
        },
        shared !== undefined,
      );
      // Another replica may take the client's first tasks/get.
      await tasks.shared?.written();
      // The SDK passes a tools/call result whose resultType is not 'complete' through as it is.
      return { resultType: 'task', ...task } as unknown as ReturnType<typeof withNamedToolSchemas>;
    }
    return inputRequired({
      inputRequests: outcome.inputRequests,
      requestState: outcome.requestState,
    }) as unknown as ReturnType<typeof withNamedToolSchemas>;
  };
}
