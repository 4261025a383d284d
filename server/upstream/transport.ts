import * as path from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { ServerSpec } from '../powers/types.js';

const guardScript = path.join(__dirname, 'child-guard.js');

export interface CreatedTransport {
  transport: Transport;
  /** The child's stderr, for stdio powers: read for crash reports, never forwarded as is. */
  stderr?: NodeJS.ReadableStream;
}

/**
 * Inside VS Code the gateway runs on Electron's binary with ELECTRON_RUN_AS_NODE=1; the guard
 * (and a demo server started with the same binary) needs it too, or Electron starts as an app.
 */
function electronAsNode(): Record<string, string> {
  return process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
}

/** One SDK client transport for a power's server spec. Stdio servers run under the child guard. */
export function createTransport(spec: ServerSpec): CreatedTransport {
  switch (spec.transport) {
    case 'stdio': {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [guardScript, spec.command, ...spec.args],
        env: { ...getDefaultEnvironment(), ...electronAsNode(), ...spec.env },
        cwd: spec.cwd,
        stderr: 'pipe',
      });
      return { transport, stderr: (transport.stderr as NodeJS.ReadableStream | null) ?? undefined };
    }
    case 'http':
      return { transport: new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers } }) };
    case 'sse':
      return { transport: new SSEClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers } }) };
  }
}
