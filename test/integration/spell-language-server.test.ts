/**
 * The gateway process as the language server for spell files, driven over IPC as vscode-languageclient
 * drives it: diagnostics on open and on edit, completion, hover, quick fixes. Then a second process
 * started with the first one's endpoint and active powers (a restart) takes both over.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { connectHttp, gatewayEnv, waitFor } from '../helpers/gateway-process.js';
import { IpcPeer } from '../helpers/ipc-peer.js';
import { repoRoot, tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';
import * as protocol from '../../protocol/extension-methods.js';
import type { Endpoint, PowersPayload } from '../../protocol/records.js';
import type { ClientSettings, InitializationOptions, RestoreOptions } from '../../protocol/client-settings-schema.js';

const entry = path.join(repoRoot, 'out', 'server', 'extension-main.js');

interface Diagnostic {
  range: { start: { line: number; character: number } };
  severity: number;
  code: string;
  message: string;
}

const settings = (spells: string): ClientSettings => ({
  demoPowers: false,
  spellFolders: [spells],
  gateway: { imports: { vscode: false, claudeDesktop: false }, discovery: { enabled: false } },
});

let home: { dir: string; cleanup: () => void };
let spells: string;
const peers: IpcPeer[] = [];

async function startGateway(restore?: RestoreOptions): Promise<IpcPeer> {
  const child = fork(entry, ['--node-ipc', `--clientProcessId=${process.pid}`], {
    env: gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const peer = new IpcPeer(child);
  peers.push(peer);
  const initializationOptions: InitializationOptions = { settings: settings(spells), ...(restore ? { restore } : {}) };
  await peer.request(
    { method: 'initialize' },
    { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions },
  );
  peer.notify('initialized', {});
  return peer;
}

function diagnosticsFor(peer: IpcPeer, uri: string): Diagnostic[][] {
  return peer.notifications
    .filter((n) => n.method === 'textDocument/publishDiagnostics' && (n.params as { uri: string }).uri === uri)
    .map((n) => (n.params as { diagnostics: Diagnostic[] }).diagnostics);
}

before(() => {
  home = tempDir();
  spells = path.join(home.dir, 'spells');
  writeSpell(spells, 'unstable', unstableSpell());
});

after(async () => {
  for (const peer of peers) await peer.stop();
  home.cleanup();
});

const MALFORMED =
  'name: My Power!\nversion: 1.0.0\ndescription: Does things.\nkeywords: [one]\ncolour: blue\nserver:\n  command: node\n';

test('diagnostics on open and on every edit, at the right lines; quick fixes, completion and hover', async () => {
  const peer = await startGateway();
  await peer.request<null, Endpoint>(protocol.getEndpoint, null);
  const uri = pathToFileURL(path.join(spells, 'my-power.spell.yaml')).href;
  peer.notify('textDocument/didOpen', {
    textDocument: { uri, languageId: 'grimoire-spell', version: 1, text: MALFORMED },
  });
  await waitFor(() => diagnosticsFor(peer, uri).length === 1, 10_000, 'diagnostics after didOpen');
  const opened = diagnosticsFor(peer, uri)[0];
  assert.deepEqual(
    opened.map((d) => [d.range.start.line, d.range.start.character, d.severity, d.code]),
    [
      [0, 6, 1, 'schema'],
      [3, 10, 1, 'schema'],
      [4, 0, 2, 'unknown-key'],
    ],
  );
  assert.match(opened[1].message, /keywords has 1 entry; at least 3 are needed\. Fix: list 3 to 20 words/);

  const actions = await peer.request<
    object,
    Array<{ title: string; edit: { changes: Record<string, Array<{ newText: string }>> } }>
  >(
    { method: 'textDocument/codeAction' },
    {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 15 } },
      context: { diagnostics: [] },
    },
  );
  assert.deepEqual(
    actions.map((a) => a.title),
    ['Change the name to "my-power"'],
  );
  assert.equal(actions[0].edit.changes[uri][0].newText, 'my-power');

  const fixed = MALFORMED.replace('My Power!', 'my-power')
    .replace('[one]', '[one, two, three]')
    .replace('colour: blue\n', '');
  peer.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: fixed }] });
  await waitFor(() => diagnosticsFor(peer, uri).length === 2, 10_000, 'diagnostics after the edit');
  assert.deepEqual(diagnosticsFor(peer, uri)[1], []);

  const completion = await peer.request<object, Array<{ label: string }>>(
    { method: 'textDocument/completion' },
    { textDocument: { uri }, position: { line: 5, character: 2 } },
  );
  assert.ok(
    ['args', 'env', 'cwd'].every((key) => completion.some((item) => item.label === key)),
    completion.map((item) => item.label).join(', '),
  );
  const hover = await peer.request<object, { contents: { value: string } }>(
    { method: 'textDocument/hover' },
    { textDocument: { uri }, position: { line: 3, character: 2 } },
  );
  assert.match(hover.contents.value, /\*\*keywords\*\*/);

  const twin = pathToFileURL(path.join(home.dir, 'elsewhere', 'unstable.spell.yaml')).href;
  peer.notify('textDocument/didOpen', {
    textDocument: { uri: twin, languageId: 'grimoire-spell', version: 1, text: unstableSpell() },
  });
  await waitFor(() => diagnosticsFor(peer, twin).length >= 1, 10_000, 'diagnostics of a second unstable spell');
  const duplicate = diagnosticsFor(peer, twin).at(-1)!;
  assert.deepEqual(
    duplicate.map((d) => d.code),
    ['duplicate-name'],
  );
  assert.match(
    duplicate[0].message,
    new RegExp(
      `another power is named "unstable" \\(in ${path.join(spells, 'unstable.spell.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`,
    ),
  );

  peer.notify('textDocument/didClose', { textDocument: { uri } });
  await waitFor(() => diagnosticsFor(peer, uri).length === 3, 10_000, 'diagnostics cleared on close');
  assert.deepEqual(diagnosticsFor(peer, uri)[2], []);
});

test('a restarted process serves the same URL and token and activates the powers that were active', async () => {
  const first = peers[0];
  const activated = await first.request(protocol.activatePower, { name: 'unstable' });
  const before = await first.request<null, Endpoint>(protocol.getEndpoint, null);
  await first.stop();

  const second = await startGateway({
    endpoint: { url: before.url, token: before.token },
    activeServers: [activated.serverId, 'a-server-no-longer-configured'],
  });
  const after = await second.request<null, Endpoint>(protocol.getEndpoint, null);
  assert.equal(after.url, before.url);
  assert.equal(after.token, before.token);
  // The first powers list the new process pushes shows it active already: the Powers view never reads "stopped" meanwhile.
  await waitFor(() => second.received(protocol.powersChanged).length > 0, 15_000, 'the first powers push');
  const firstPush = second.received(protocol.powersChanged)[0]!;
  assert.equal(
    firstPush.powers.find((p) => p.name === 'unstable')?.active,
    true,
    JSON.stringify(firstPush.powers.map((p) => [p.name, p.active, p.state])),
  );
  await waitFor(
    async () =>
      (await second.request<null, PowersPayload>(protocol.listPowers, null)).powers.find((p) => p.name === 'unstable')
        ?.active === true,
    15_000,
    'unstable active again',
  );
  const { client } = await connectHttp(after.url, before.token);
  try {
    await waitFor(
      async () => (await client.listTools()).tools.some((tool) => tool.name === 'unstable__echo'),
      15_000,
      "unstable's tools for an MCP client of the restarted process",
    );
  } finally {
    await client.close();
  }
});
