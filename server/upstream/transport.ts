import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { ServerSpec } from '../powers/types.js';
import { ChildProcessTransport } from './children/child-process-transport.js';
import { electronAsNode } from './children/platform-spawn.js';
import { fetchWithOwnSignal } from './own-signal-fetch.js';
import { withoutGatewaySecrets } from '../util/gateway-secrets.js';

export interface CreatedTransport {
  transport: Transport;
  /** The child's stderr, for stdio powers: read for crash reports, never forwarded as is. */
  stderr?: NodeJS.ReadableStream;
  /** How a stdio child exited, once it has. */
  exit: () => { code: number | null; signal: NodeJS.Signals | null } | undefined;
}

/**
 * The environment a stdio power's server starts with: the few variables the SDK lets a server inherit
 * (PATH, HOME...; never one of the gateway's own credentials), then its spell's or config's `env` as
 * written. A value written there under a credential's name (a Postgres server's `PGPASSWORD`) is
 * that server's own, the user's choice, and passes: the gateway's own value never reaches a spell
 * (`${PGPASSWORD}` is unset there, runtime-parts.ts), so only a value the author wrote can.
 */
export function childEnvironment(written: Record<string, string>): Record<string, string> {
  return { ...withoutGatewaySecrets(getDefaultEnvironment()), ...electronAsNode(), ...written };
}

/**
 * One client transport for a power's server spec. Stdio servers run in a process group of their
 * own under the gateway's one supervisor (children/); inside VS Code they get ELECTRON_RUN_AS_NODE
 * so a server started with the editor's own binary (the demo) runs as Node, not as an app.
 */
export function createTransport(spec: ServerSpec, options: { maxMessageBytes: number }): CreatedTransport {
  switch (spec.transport) {
    case 'stdio': {
      const transport = new ChildProcessTransport(
        { command: spec.command, args: spec.args, env: childEnvironment(spec.env), cwd: spec.cwd },
        { maxMessageBytes: options.maxMessageBytes },
      );
      return { transport, stderr: transport.stderr, exit: () => transport.exit };
    }
    case 'http':
      return {
        transport: new StreamableHTTPClientTransport(new URL(spec.url), {
          requestInit: { headers: spec.headers },
          fetch: fetchWithOwnSignal(),
        }),
        exit: () => undefined,
      };
    case 'sse':
      return {
        transport: new SSEClientTransport(new URL(spec.url), {
          requestInit: { headers: spec.headers },
          fetch: fetchWithOwnSignal(),
        }),
        exit: () => undefined,
      };
  }
}
