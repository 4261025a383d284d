/**
 * The keywords of a new spell, asked of the real gateway process the way the extension asks
 * (protocol.spellKeywords over the node IPC channel): telling words from the key, the package and
 * the tool names, placeholders when too few are found, a wrong shape refused with what is wrong.
 * Answered without the runtime: the process is initialized but never started here.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import * as path from 'node:path';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { IpcPeer } from '../helpers/ipc-peer.js';
import { repoRoot, tempDir } from '../helpers/temp.js';
import * as protocol from '../../protocol/extension-methods.js';
import { PLACEHOLDER_KEYWORDS } from '../../shared/placeholders.js';
import { MEMORY_TOOL_NAMES } from '../helpers/memory-spell.js';

const entry = path.join(repoRoot, 'out', 'server', 'extension-main.js');

let home: { dir: string; cleanup: () => void };
let peer: IpcPeer;

before(async () => {
  home = tempDir();
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  const child = fork(entry, ['--node-ipc', `--clientProcessId=${process.pid}`], {
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  peer = new IpcPeer(child);
  await peer.request({ method: 'initialize' }, { processId: process.pid, rootUri: null, capabilities: {} });
});

after(async () => {
  await peer.stop();
  home.cleanup();
});

test('the key and the package first, then the words the tool names share; no filler', async () => {
  const keywords = await peer.request(protocol.spellKeywords, {
    key: 'notes',
    packageName: 'memory',
    toolNames: [...MEMORY_TOOL_NAMES],
    description: 'A knowledge graph of entities, relations and observations kept across sessions.',
  });
  assert.deepEqual(keywords.slice(0, 2), ['notes', 'memory']);
  for (const word of ['entities', 'relations', 'observations', 'graph'])
    assert.ok(keywords.includes(word), `${word} in ${keywords.join(', ')}`);
  for (const filler of ['mcp', 'server', 'tools', 'add', 'delete', 'read'])
    assert.ok(!keywords.includes(filler), `no filler "${filler}" in ${keywords.join(', ')}`);
  assert.ok(keywords.length <= 20);
});

test('too few telling words: the template placeholders fill up to three', async () => {
  const keywords = await peer.request(protocol.spellKeywords, { key: 'weather', toolNames: [] });
  assert.deepEqual(keywords, ['weather', ...PLACEHOLDER_KEYWORDS.slice(0, 2)]);
  const none = await peer.request(protocol.spellKeywords, { key: 'db', toolNames: [] });
  assert.deepEqual(none, PLACEHOLDER_KEYWORDS, 'a key too short to tell anything');
});

test('a request of the wrong shape is refused with what is wrong', async () => {
  const refused = (pattern: RegExp) => (error: Error & { code?: number }) =>
    error.code === protocol.GATEWAY_ERROR && pattern.test(error.message);
  await assert.rejects(peer.request({ method: protocol.spellKeywords.method }, { toolNames: [] }), refused(/key/));
  await assert.rejects(
    peer.request({ method: protocol.spellKeywords.method }, { key: 'x', toolNames: [1] }),
    refused(/toolNames must be a list of strings/),
  );
  await assert.rejects(
    peer.request({ method: protocol.spellKeywords.method }, { key: 'x', toolNames: [], packageName: 3 }),
    refused(/packageName must be a string/),
  );
});
