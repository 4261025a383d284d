/**
 * A power's log messages during a 2026-07-28 client's call, for a request whose `_meta` asks for a
 * log level (the revision has no logging/setLevel: a request asks for itself): while the call
 * runs, the messages of the powers the session is calling go to that request, masked as the
 * gateway's own log is, at the level it asked (the SDK's request context filters by it).
 */
import { LOG_LEVEL_META_KEY, type LoggingMessageNotification, type ServerContext } from '@modelcontextprotocol/server';
import type { ClientFeatureHub } from '../../upstream/client-features.js';
import { maskDeep, maskSecrets } from '../../util/secrets.js';

/** Starts passing the powers' messages to the request, when it asked for them; returns how to stop. */
export function passCallLogs(hub: ClientFeatureHub, sessionId: string, ctx: ServerContext): () => void {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope?.[LOG_LEVEL_META_KEY] === undefined) return () => undefined;
  const onLog = (power: string, params: LoggingMessageNotification['params']) => {
    if (!hub.sessionIsCalling(power, sessionId)) return;
    const data = typeof params.data === 'string' ? maskSecrets(params.data) : maskDeep(params.data);
    void ctx.mcpReq
      .log(params.level, data, params.logger ? `${power}/${maskSecrets(params.logger)}` : power)
      .catch(() => undefined);
  };
  hub.on('log', onLog);
  return () => hub.off('log', onLog);
}
