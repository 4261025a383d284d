/**
 * The JSON-RPC methods between the extension and the gateway process are typed end to end: the
 * `@ts-expect-error` lines below fail the build (`tsc -b`) the day a notification registered by its
 * method string, a request passed as a notification, or params of another type would compile again,
 * on the extension's side (GatewayClient) or the gateway's (the Notify its live updates push through).
 * The test itself checks that each method is declared once, as what it is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GatewayClient } from '../../client/gateway-client.js';
import * as protocol from '../../protocol/extension-methods.js';
import type { GatewayStatus, HintsPayload, PowersPayload } from '../../protocol/records.js';
import type { Notify } from '../../server/rpc/live-updates.js';

export function extensionSideIsCompileChecked(gateway: GatewayClient): void {
  gateway.onNotification(protocol.statusChanged, (status) => void status.health);
  // @ts-expect-error statusChanged carries a GatewayStatus, not the powers
  gateway.onNotification(protocol.statusChanged, (payload: PowersPayload) => void payload.powers);
  // @ts-expect-error a notification is named by its declaration, never by its method string
  gateway.onNotification('grimoire/statusChanged', () => undefined);
  // @ts-expect-error getStatus is a request, not a notification
  gateway.onNotification(protocol.getStatus, () => undefined);
  gateway.notify(protocol.languageModelAvailability, { available: true, models: [] });
  // @ts-expect-error languageModelAvailability says whether a model is there with a boolean
  gateway.notify(protocol.languageModelAvailability, { available: 'yes', models: [] });
  // @ts-expect-error a request is sent with request(), not notify()
  gateway.notify(protocol.reloadPowers, null);
  void gateway.request(protocol.spellKeywords, { key: 'notes', toolNames: [] });
  // @ts-expect-error spellKeywords needs the tool names (an empty list when none are known)
  void gateway.request(protocol.spellKeywords, { key: 'notes' });
}

export function gatewaySideIsCompileChecked(notify: Notify, hints: HintsPayload, status: GatewayStatus): void {
  notify(protocol.hintsChanged, hints);
  // @ts-expect-error hintsChanged carries the hint network, not a status
  notify(protocol.hintsChanged, status);
  // @ts-expect-error getHints is a request: the gateway answers it, never pushes it
  notify(protocol.getHints, { scope: 'active' });
}

test('each JSON-RPC method is declared once, as a request or a notification', () => {
  const isMethod = (value: unknown): value is { kind: string; method: string } =>
    typeof value === 'object' && value !== null && 'method' in value;
  const declared = Object.entries(protocol as Record<string, unknown>).flatMap(([name, value]) =>
    isMethod(value) ? [[name, value] as const] : [],
  );
  assert.ok(declared.length >= 30, `${declared.length} methods`);
  const methods = declared.map(([, type]) => type.method);
  assert.deepEqual(
    methods.filter((method, index) => methods.indexOf(method) !== index),
    [],
    'no method declared twice',
  );
  for (const [name, type] of declared) assert.ok(type.kind === 'request' || type.kind === 'notification', name);
  const notifications = declared.filter(([, type]) => type.kind === 'notification').map(([name]) => name);
  for (const name of ['statusChanged', 'powersChanged', 'didChangeConfiguration', 'languageModelAvailability'])
    assert.ok(notifications.includes(name), `${name} is a notification`);
});
