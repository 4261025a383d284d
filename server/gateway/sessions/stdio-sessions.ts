/**
 * The gateway's MCP session over stdio, in the era the client opens it with: the SDK's stdio entry
 * answers `server/discover` and a 2026-07-28 request on a modern session, `initialize` on a legacy
 * one (a modern probe followed by `initialize` falls back), and refuses an unknown revision with
 * -32022 and the supported list. One session id, 'stdio', whichever era.
 */
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { Transport } from '@modelcontextprotocol/server';
import { errorMessage, logger } from '../../log.js';
import type { Gateway } from '../gateway.js';
import { createMcpSession, maskErrorAnswers } from './mcp-session.js';

const log = logger('stdio');

export function serveStdioSessions(gateway: Gateway, transport: Transport): StdioServerHandle {
  maskErrorAnswers(transport);
  return serveStdio(({ era }) => createMcpSession(gateway, 'stdio', false, undefined, era).server, {
    transport,
    onerror: (error) => log.debug(`stdio session: ${errorMessage(error)}`),
  });
}
