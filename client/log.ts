/** The Grimoire output channel: the client's lines and the gateway's, with secrets masked. */
import type * as vscode from 'vscode';

const TOKEN_FIELD = /("token"\s*:\s*")[^"]*(")/g;
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

/** Masks the endpoint token wherever it could appear: JSON fields, bearer headers, known values. */
export function redact(text: string, secrets: Iterable<string> = []): string {
  let out = text.replace(TOKEN_FIELD, '$1***$2').replace(BEARER, '$1***');
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***');
  return out;
}

export type ServerLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The gateway logs `<ISO time> <level> [scope] message`; the channel adds its own time and level. */
export function parseServerLogLine(line: string): { level: ServerLogLevel; text: string } {
  const match = /^\d{4}-\d\d-\d\dT[\d:.]+Z\s+(debug|info|warn|error)\s+(.*)$/.exec(line);
  if (!match) return { level: 'info', text: line };
  return { level: match[1] as ServerLogLevel, text: match[2] };
}

const WRITERS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace']);

/** The same channel, with every string written through it redacted first (vscode-languageclient writes to it too). */
export function redactingChannel(
  channel: vscode.LogOutputChannel,
  secrets: () => Iterable<string>,
): vscode.LogOutputChannel {
  return new Proxy(channel, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof property === 'string' && WRITERS.has(property)) {
        return (...args: unknown[]) =>
          value.apply(
            target,
            args.map((arg) => (typeof arg === 'string' ? redact(arg, secrets()) : arg)),
          );
      }
      return value.bind(target);
    },
  });
}
