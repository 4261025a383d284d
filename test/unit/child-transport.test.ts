import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ChildProcessTransport } from '../../server/upstream/children/child-process-transport.js';
import { createTransport } from '../../server/upstream/transport.js';
import { waitFor } from '../helpers/gateway-process.js';

/** A child that answers each request line with `size` bytes of result, then a small one. */
const ANSWERING_CHILD = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const { id, params } = JSON.parse(line);
  process.stdout.write(JSON.stringify({ result: { text: 'y'.repeat(params.size) }, jsonrpc: '2.0', id }) + '\\n');
});`;

function collect(transport: ChildProcessTransport) {
  const messages: JSONRPCMessage[] = [];
  transport.onmessage = (message) => messages.push(message);
  return messages;
}

test('an answer over the limit becomes an error for its request; the child and the next answers carry on', async () => {
  const transport = new ChildProcessTransport(
    { command: process.execPath, args: ['-e', ANSWERING_CHILD], env: { PATH: process.env.PATH ?? '' } },
    { maxMessageBytes: 64 * 1024, graceMs: 200 },
  );
  const messages = collect(transport);
  let closed = false;
  transport.onclose = () => (closed = true);
  await transport.start();
  try {
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'big', params: { size: 3 * 1024 * 1024 } });
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'small', params: { size: 10 } });
    await waitFor(() => messages.length === 2, 10_000, 'two answers');
    assert.deepEqual(messages[0], {
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32010,
        message: 'result too large (3 MB, limit 0.1 MB)',
        data: { reason: 'result_too_large', bytes: 3 * 1024 * 1024 + 45, limitBytes: 64 * 1024 },
      },
    });
    assert.deepEqual(messages[1], { jsonrpc: '2.0', id: 2, result: { text: 'y'.repeat(10) } });
    assert.equal(closed, false);
  } finally {
    await transport.close();
  }
  assert.equal(closed, true);
});

/** A child that writes lines that are not JSON-RPC messages (one of them a request's answer in all but its id), then answers. */
const MISBEHAVING_CHILD =
  `
process.stdin.once('data', () => {
  process.stdout.write('not json\\n\\n   \\n{"hello":1}\\n{"jsonrpc":"2.0","id":null,"result":{}}\\n` +
  `[{"jsonrpc":"2.0","id":1,"result":{}}]\\n');
  process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{"ok":"\\u00e9t\\u00e9"}}\\r\\n` +
  `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\\n');
});`;

test('lines that are not JSON-RPC messages are reported and dropped; blank lines are skipped; the answer after them arrives', async () => {
  const transport = new ChildProcessTransport(
    { command: process.execPath, args: ['-e', MISBEHAVING_CHILD], env: { PATH: process.env.PATH ?? '' } },
    { maxMessageBytes: 64 * 1024, graceMs: 200 },
  );
  const messages = collect(transport);
  const errors: string[] = [];
  transport.onerror = (error) => errors.push(error.message);
  await transport.start();
  try {
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'x' });
    await waitFor(() => messages.length === 2, 10_000, 'the answer and the notification');
    assert.deepEqual(messages, [
      { jsonrpc: '2.0', id: 1, result: { ok: 'été' } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
    ]);
    assert.equal(errors.length, 4, errors.join('\n'));
    assert.match(errors[0], /JSON/);
    assert.ok(
      errors.slice(1).every((message) => /not a JSON-RPC 2\.0 message/.test(message)),
      errors.join('\n'),
    );
    assert.ok(
      errors.every((message) => !message.includes('hello')),
      'a dropped line is described by its size, not shown',
    );
  } finally {
    await transport.close();
  }
});

test('a command that does not exist fails start with the reason and closes', async () => {
  const transport = new ChildProcessTransport(
    { command: 'surely-not-a-command-xyz', args: [], env: { PATH: process.env.PATH ?? '' } },
    { maxMessageBytes: 1024 },
  );
  let closed = false;
  transport.onclose = () => (closed = true);
  transport.onerror = () => undefined;
  await assert.rejects(transport.start(), /ENOENT/);
  await waitFor(() => closed, 2000, 'onclose');
});

test('inside Electron a stdio child gets ELECTRON_RUN_AS_NODE=1 (a server on the editor binary runs as Node)', async () => {
  Object.defineProperty(process.versions, 'electron', { value: '37.0.0', configurable: true });
  try {
    const { transport, stderr } = createTransport(
      {
        transport: 'stdio',
        command: process.execPath,
        args: ['-e', 'process.stderr.write(String(process.env.ELECTRON_RUN_AS_NODE) + "\\n")'],
        env: {},
      },
      { maxMessageBytes: 1024 },
    );
    let text = '';
    stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await transport.start();
    await waitFor(() => text.includes('\n'), 5000, 'the child to report');
    assert.equal(text.trim(), '1');
    await transport.close();
  } finally {
    delete (process.versions as Record<string, string | undefined>).electron;
  }
});
