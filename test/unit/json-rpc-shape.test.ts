import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { isJsonRpcMessage, jsonRpcKind, type JsonRpcKind } from '../../server/util/json-rpc-shape.js';

/** The SDK's verdict: which of its four message schemas accepts `value` (the union tries them in this order). */
function sdkKind(value: unknown): JsonRpcKind | undefined {
  if (JSONRPCRequestSchema.safeParse(value).success) return 'request';
  if (JSONRPCNotificationSchema.safeParse(value).success) return 'notification';
  if (JSONRPCResultResponseSchema.safeParse(value).success) return 'result';
  if (JSONRPCErrorResponseSchema.safeParse(value).success) return 'error';
  return undefined;
}

const ABSENT = Symbol('absent');

/** Values every field is tried with: JSON's and the ones a JS object built in process can hold. */
const VALUES: unknown[] = [
  ABSENT,
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  7,
  1.5,
  -2.25,
  1e3,
  2 ** 31,
  2 ** 53 - 1,
  -(2 ** 53 - 1),
  2 ** 53,
  -(2 ** 53),
  1e300,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  '2.0',
  '2',
  '1.0',
  ' 2.0',
  'x',
  'tools/call',
  '0',
  [],
  [1],
  ['2.0'],
  {},
  { a: 1 },
  { code: 1, message: 'm' },
  { code: 1.5, message: 'm' },
  { code: '1', message: 'm' },
  { code: 1 },
  { message: 'm' },
  { code: -32600, message: 'm', data: { x: 1 } },
  { code: 2 ** 53, message: 'm' },
  { code: 1, message: 'm', extra: true },
  { _meta: null },
  { _meta: [] },
  { _meta: {} },
  { _meta: { progressToken: 'p' } },
  { _meta: { progressToken: 3 } },
  { _meta: { progressToken: 3.5 } },
  { _meta: { progressToken: null } },
  { _meta: { progressToken: 2 ** 60 } },
  { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } },
  { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 1 } } },
  { _meta: { 'io.modelcontextprotocol/related-task': null } },
  { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't', more: 1 } } },
  { _meta: { other: 1 }, content: [] },
  { name: 'echo', arguments: { message: 'hi' } },
  new Date(0),
  () => 1,
];

const BASES: Record<JsonRpcKind, Record<string, unknown>> = {
  request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } },
  notification: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
  result: { jsonrpc: '2.0', id: 'a', result: { content: [{ type: 'text', text: 'hi' }] } },
  error: { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
};

const KEYS = ['jsonrpc', 'id', 'method', 'params', 'result', 'error', 'extra', 'ID', '__proto__', 'constructor'];

function withField(base: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...base };
  delete copy[key];
  if (value !== ABSENT)
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** A small deterministic PRNG (mulberry32), so a failing case can be found again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function* generated(): Generator<unknown> {
  // Not objects at all, and batches (the SDK's schema takes one message, never an array).
  yield* [null, undefined, 0, 1, 'x', '{"jsonrpc":"2.0"}', true, [], [BASES.request], [BASES.request, BASES.result]];
  // Each base message with every field replaced by (or removed for) every value.
  for (const base of Object.values(BASES)) {
    yield base;
    for (const key of KEYS) for (const value of VALUES) yield withField(base, key, value);
  }
  // Two fields at once over a smaller value set, on every base.
  const few = VALUES.filter((_, index) => index % 3 === 0);
  for (const base of Object.values(BASES)) {
    for (const first of KEYS.slice(0, 6)) {
      for (const second of KEYS.slice(0, 6)) {
        if (first >= second) continue;
        for (const a of few) for (const b of few) yield withField(withField(base, first, a), second, b);
      }
    }
  }
  // Messages as a peer's JSON text holds them, own __proto__ keys included.
  for (const text of [
    '{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{"id":2}}',
    '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":null}}',
    '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"__proto__":{"progressToken":1.5}}}}',
    '{"jsonrpc":"2.0","id":1,"result":{"__proto__":[]}}',
    '{"jsonrpc":"2.0","error":{"code":1,"message":"m","__proto__":{"code":"x"}}}',
    '{"jsonrpc":"2.0","id":12345678901234567890,"method":"x"}',
    '{"jsonrpc":"2.0","id":1.0,"method":"x"}',
    '{"jsonrpc":"2.0","id":1e2,"result":{}}',
  ]) {
    yield JSON.parse(text);
  }
  // Random messages from the keys and values above.
  const next = random(12);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  for (let index = 0; index < 10_000; index += 1) {
    let message: Record<string, unknown> = next() < 0.3 ? {} : { ...pick(Object.values(BASES)) };
    const changes = 1 + Math.floor(next() * 4);
    for (let change = 0; change < changes; change += 1) message = withField(message, pick(KEYS), pick(VALUES));
    yield message;
  }
}

test('every generated message gets the SDK schema verdict, and the same kind', () => {
  const counts = { accepted: 0, rejected: 0 };
  const kinds = new Map<JsonRpcKind | undefined, number>();
  for (const message of generated()) {
    const expected = sdkKind(message);
    assert.equal(
      JSONRPCMessageSchema.safeParse(message).success,
      expected !== undefined,
      'the union agrees with its members',
    );
    const shown = () => {
      try {
        return JSON.stringify(message);
      } catch {
        return String(message);
      }
    };
    assert.equal(jsonRpcKind(message), expected, shown());
    assert.equal(isJsonRpcMessage(message), expected !== undefined, shown());
    counts[expected === undefined ? 'rejected' : 'accepted'] += 1;
    kinds.set(expected, (kinds.get(expected) ?? 0) + 1);
  }
  // The set must exercise both verdicts and all four kinds, or the agreement above says little.
  for (const kind of ['request', 'notification', 'result', 'error'] as const)
    assert.ok((kinds.get(kind) ?? 0) > 100, `${kind}: ${kinds.get(kind)}`);
  assert.ok(counts.accepted > 500 && counts.rejected > 10_000, JSON.stringify({ ...counts, kinds: [...kinds] }));
});
