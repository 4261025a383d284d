/**
 * Routing in a real VS Code, as the walkthrough's spell path takes it: a spell made from a server of
 * the workspace's mcp.json moves the entry (no double listing), keeps `${workspaceFolder}`, carries
 * no placeholder steering, and the undo gives the file back byte for byte; a placeholder left in a
 * spell is a warning in the Problems panel.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GrimoireApi } from '../../../client/extension.js';
import { askHarness, harnessAvailable, type TextAnswer } from './harness-client.js';
import { approveLaunch, workspaceFolder } from './launches.js';
import { test, waitFor } from './runner.js';

async function grimoire(): Promise<GrimoireApi> {
  const extension = vscode.extensions.getExtension<GrimoireApi>('grimoire.grimoire');
  assert.ok(extension, 'the extension is installed');
  return extension.activate();
}

const placeholders = (uri: vscode.Uri) =>
  vscode.languages.getDiagnostics(uri).filter((d) => /placeholder/.test(d.message));

/**
 * The extension's API once its gateway is ready; the workspace mcp.json (its text and parsed), and
 * an entry for a new server-memory (its 'Team Notes' server's command) keeping its notes in `file`
 * of the workspace folder.
 */
async function readyWorkspace() {
  const api = await grimoire();
  await waitFor(() => api.timings().gatewayReadyMs !== undefined, 60_000, 'the gateway to be ready');
  const mcpJson = path.join(workspaceFolder(), '.vscode', 'mcp.json');
  const original = fs.readFileSync(mcpJson, 'utf8');
  const config = JSON.parse(original) as { servers: Record<string, { command: string; args: string[] }> };
  const teamNotes = config.servers['Team Notes']!;
  const notesServer = (file: string) => ({
    command: teamNotes.command,
    args: teamNotes.args,
    env: { MEMORY_FILE_PATH: `\${workspaceFolder}/${file}` },
  });
  return { api, mcpJson, original, config, notesServer };
}

test('a placeholder steering left in a spell is a warning in the Problems panel', async () => {
  await grimoire();
  const editor = await vscode.commands.executeCommand<vscode.TextEditor>('grimoire.newSpellFile', {
    from: 'template',
    name: 'placeholder-check',
    folder: path.join(workspaceFolder(), '.grimoire-placeholder-check'),
  });
  try {
    const warnings = await waitFor(
      () => {
        const found = placeholders(editor.document.uri);
        return found.some((d) => /steering/.test(d.message)) && found;
      },
      30_000,
      'the steering placeholder flagged',
    );
    const steering = warnings.find((d) => /steering/.test(d.message))!;
    assert.equal(steering.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(steering.message, /not sent to the agent/);
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    fs.rmSync(path.join(workspaceFolder(), '.grimoire-placeholder-check'), { recursive: true, force: true });
  }
});

test(
  'New Spell File from a server of the workspace mcp.json moves the entry into the spell; ' +
    'the undo gives the file back byte for byte',
  async () => {
    const { api, mcpJson, original, notesServer } = await readyWorkspace();
    // A comment and the file's own layout, which routing must keep.
    const withEntry = original.replace(
      '"servers": {',
      `"servers": {\n    // notes of the walkthrough\n    "Walk Notes": ${JSON.stringify(notesServer('walk-notes.jsonl'))},`,
    );
    fs.writeFileSync(mcpJson, withEntry);
    const settings = vscode.workspace.getConfiguration('grimoire');
    await settings.update('imports.vscode', true, vscode.ConfigurationTarget.Workspace);
    const spell = path.join(workspaceFolder(), '.grimoire', 'walk-notes.spell.yaml');
    try {
      await waitFor(
        () => api.powers().find((power) => power.name === 'walk-notes' && power.source.kind === 'vscode-mcp'),
        60_000,
        'walk-notes imported',
      );
      // The user approved the server's launch (from a terminal here: no dialogs in tests); its tools are then listed in the background.
      await approveLaunch('walk-notes', true);
      await waitFor(
        () => api.powers().find((power) => power.name === 'walk-notes' && power.tools.length > 0),
        60_000,
        'walk-notes listed',
      );
      const editor = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('grimoire.newSpellFile', {
        from: { file: mcpJson, key: 'Walk Notes' },
        entry: 'move',
      });
      assert.equal(editor?.document.uri.fsPath, spell, 'the spell routing wrote is opened');
      const after = fs.readFileSync(mcpJson, 'utf8');
      assert.doesNotMatch(after, /Walk Notes/, 'VS Code no longer lists it');
      assert.match(after, /\/\/ notes of the walkthrough/, 'the comment stays');
      const text = fs.readFileSync(spell, 'utf8');
      assert.match(text, /\$\{workspaceFolder\}\/walk-notes\.jsonl/, 'the variable stays a variable');
      assert.doesNotMatch(text, /steering|TODO|placeholder/i);
      await waitFor(
        () => api.powers().find((power) => power.name === 'walk-notes' && power.source.kind === 'spell'),
        20_000,
        'walk-notes from its spell',
      );
      assert.deepEqual(api.powers().filter((power) => power.name === 'walk-notes').length, 1, 'listed once');
      await waitFor(() => vscode.languages.getDiagnostics(editor!.document.uri) !== undefined, 5_000, 'diagnostics');
      assert.deepEqual(
        placeholders(editor!.document.uri).map((d) => d.message),
        [],
        'no placeholder in the routed spell',
      );

      const undone = await vscode.commands.executeCommand<{
        restored: string;
        backupFile: string;
        removedFolders: string[];
      }>('grimoire.undoRouteThroughGrimoire', 'walk-notes');
      assert.equal(undone.restored, 'exact');
      assert.equal(fs.readFileSync(mcpJson, 'utf8'), withEntry, 'byte for byte');
      assert.equal(
        fs.readFileSync(undone.backupFile, 'utf8'),
        withEntry,
        'the backup the undo names is the exact file',
      );
      assert.ok(!fs.existsSync(spell));
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await settings.update('imports.vscode', false, vscode.ConfigurationTarget.Workspace);
      fs.writeFileSync(mcpJson, original);
      fs.rmSync(spell, { force: true });
    }
  },
  180_000,
);

test(
  'servers added to the workspace mcp.json are offered for routing once their tools are listed, ' +
    'in one offer naming each with its figures, before any call',
  async (t) => {
    const { api, mcpJson, original, config, notesServer: server } = await readyWorkspace();
    await vscode.commands.executeCommand('notifications.clearAll');
    fs.writeFileSync(
      mcpJson,
      JSON.stringify(
        { servers: { ...config.servers, 'Offer One': server('one.jsonl'), 'Offer Two': server('two.jsonl') } },
        null,
        2,
      ) + '\n',
    );
    const settings = vscode.workspace.getConfiguration('grimoire');
    await settings.update('imports.vscode', true, vscode.ConfigurationTarget.Workspace);
    try {
      // The user approved both launches (from a terminal: no dialogs in tests); listed in the background
      // (discovery): nobody activates or calls them.
      await waitFor(
        () => ['offer-one', 'offer-two'].every((name) => api.powers().some((power) => power.name === name)),
        60_000,
        'both servers imported',
      );
      for (const name of ['offer-one', 'offer-two']) await approveLaunch(name, true);
      const listed = await waitFor(
        () => {
          const both = ['offer-one', 'offer-two'].map((name) =>
            api.powers().find((power) => power.name === name && power.tools.length > 0),
          );
          return both.every(Boolean) && both;
        },
        90_000,
        'both servers listed in the background',
      );
      assert.ok(
        listed.every((power) => !power!.active),
        'no activation',
      );
      if (!harnessAvailable()) {
        t.skip('the notification cannot be read without the Playwright harness');
        return;
      }
      const offer = await waitFor(
        async () => {
          await vscode.commands.executeCommand('notifications.showList');
          const answer = await askHarness<TextAnswer>(
            {
              action: 'text',
              name: 'adoption-offer-both',
              selector: '.notifications-center',
              waitFor: '"offer-two" (',
            },
            5000,
          ).catch(() => undefined);
          return answer && /"offer-one" \(\d+ tools, \d+ tokens\)/.test(answer.text) && answer;
        },
        60_000,
        'one offer naming both servers',
      );
      await vscode.commands.executeCommand('notifications.hideList');
      assert.match(offer.text, /"offer-one" \(9 tools, \d+ tokens\)/);
      assert.match(offer.text, /"offer-two" \(9 tools, \d+ tokens\)/);
    } finally {
      await vscode.commands.executeCommand('notifications.clearAll');
      await settings.update('imports.vscode', false, vscode.ConfigurationTarget.Workspace);
      fs.writeFileSync(mcpJson, original);
    }
  },
  180_000,
);
