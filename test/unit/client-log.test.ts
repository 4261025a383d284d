import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServerLogLine, redact, redactingChannel } from '../../client/log.js';

const TOKEN = 'Zx9_k3LmQ2vR8tYb1nWc4eHs7uJd0aPf5gKo6iXy';

test('the endpoint token is masked in JSON, in bearer headers and wherever it is known', () => {
  assert.equal(
    redact(`Result: {"url":"http://127.0.0.1:1/mcp","token":"${TOKEN}","version":1}`),
    'Result: {"url":"http://127.0.0.1:1/mcp","token":"***","version":1}',
  );
  assert.equal(redact(`headers: {"Authorization":"Bearer ${TOKEN}"}`), 'headers: {"Authorization":"Bearer ***"}');
  assert.equal(redact(`odd place ${TOKEN}.`, [TOKEN]), 'odd place ***.');
  assert.equal(redact('nothing to hide'), 'nothing to hide');
});

test("the gateway's log lines keep their level, without a second timestamp", () => {
  assert.deepEqual(parseServerLogLine('2026-11-22T07:31:09.842Z info  [rpc] serving MCP on http://127.0.0.1:1/mcp'), {
    level: 'info',
    text: '[rpc] serving MCP on http://127.0.0.1:1/mcp',
  });
  assert.deepEqual(parseServerLogLine('2026-11-22T07:31:09.842Z warn  [powers] bad.spell.yaml: x'), {
    level: 'warn',
    text: '[powers] bad.spell.yaml: x',
  });
  assert.deepEqual(parseServerLogLine('grimoire child-guard: server exited'), {
    level: 'info',
    text: 'grimoire child-guard: server exited',
  });
});

test('the channel given to vscode-languageclient redacts every string it writes', () => {
  const written: string[] = [];
  const record = (...args: unknown[]) => void written.push(args.map(String).join(' '));
  const fake = {
    name: 'Grimoire',
    info: record,
    trace: record,
    appendLine: record,
    error: record,
    show: () => written.push('shown'),
  };
  const channel = redactingChannel(fake as unknown as Parameters<typeof redactingChannel>[0], () => [TOKEN]);
  channel.trace(`Received response 'grimoire/endpoint': {"token": "${TOKEN}"}`);
  channel.info(`saw ${TOKEN}`);
  channel.appendLine(`Authorization: Bearer ${TOKEN}`);
  channel.show();
  assert.equal(channel.name, 'Grimoire');
  assert.deepEqual(written, [
    `Received response 'grimoire/endpoint': {"token": "***"}`,
    'saw ***',
    'Authorization: Bearer ***',
    'shown',
  ]);
});
