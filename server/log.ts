/** Logging to stderr (stdout belongs to the MCP stdio transport and to the CLI's JSON output). */
import { maskSecrets, registerSecretValue } from './util/secrets.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

let threshold: LogLevel =
  (process.env.GRIMOIRE_LOG as LogLevel) in order ? (process.env.GRIMOIRE_LOG as LogLevel) : 'info';
type Sink = (line: string) => void;
let sink: Sink = (line) => process.stderr.write(line + '\n');

export function setLogLevel(level: LogLevel): void {
  threshold = level;
}

export function setLogSink(next: Sink): void {
  sink = next;
}

/** A value masked wherever text leaves the gateway from now on (server/util/secrets.ts). */
export function registerSecret(value: string): void {
  registerSecretValue(value);
}

export const redact = maskSecrets;

function write(level: LogLevel, scope: string, message: string): void {
  if (order[level] < order[threshold]) return;
  sink(redact(`${new Date().toISOString()} ${level.padEnd(5)} [${scope}] ${message}`));
}

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function logger(scope: string): Logger {
  return {
    debug: (m) => write('debug', scope, m),
    info: (m) => write('info', scope, m),
    warn: (m) => write('warn', scope, m),
    error: (m) => write('error', scope, m),
  };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
