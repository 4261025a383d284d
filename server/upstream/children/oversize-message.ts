import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { CutLine } from '../../util/bounded-lines.js';

/** The JSON-RPC error code a too-large answer gets (server-defined range); `data.reason` says which case. */
export const RESULT_TOO_LARGE_CODE = -32010;

export interface TooLargeData {
  reason: 'result_too_large';
  bytes: number;
  limitBytes: number;
}

type Id = string | number;

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,200}")`;
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`);

/**
 * Which request a cut message answered: its top-level `id`, read from where serializers put it
 * (first, as most do, or last, as the TypeScript SDK does), and only if a request with that id is
 * waiting; failing that, the only request waiting, if there is exactly one.
 */
export function cutMessageId(cut: CutLine, waiting: ReadonlySet<Id>): Id | undefined {
  for (const match of [
    ID_FIRST.exec(cut.head.toString('utf8')),
    ID_LAST.exec(cut.tail.toString('utf8').replace(/\r$/, '')),
  ]) {
    if (!match) continue;
    const id: Id = match[1].startsWith('"') ? (JSON.parse(match[1]) as string) : Number(match[1]);
    if (waiting.has(id)) return id;
  }
  return waiting.size === 1 ? [...waiting][0] : undefined;
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;

/** The error answer that stands in for a message over the limit. */
export function tooLargeAnswer(id: Id, bytes: number, limitBytes: number): JSONRPCMessage {
  const data: TooLargeData = { reason: 'result_too_large', bytes, limitBytes };
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: RESULT_TOO_LARGE_CODE,
      message: `result too large (${megabytes(bytes)}, limit ${megabytes(limitBytes)})`,
      data,
    },
  };
}
