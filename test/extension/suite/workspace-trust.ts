/**
 * What a workspace's own files cannot do in a real VS Code: add spell folders (a setting that names
 * programs to run is the user's alone), so nothing an agent writes into the workspace runs unasked.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { test } from './runner.js';

test('a workspace cannot add spell folders: grimoire.spellFolders is refused in the workspace settings', async () => {
  const settings = vscode.workspace.getConfiguration('grimoire');
  await assert.rejects(
    Promise.resolve(settings.update('spellFolders', ['tools/spells'], vscode.ConfigurationTarget.Workspace)),
    'VS Code refuses a machine setting in the workspace',
  );
  assert.equal(settings.inspect<string[]>('spellFolders')?.workspaceValue, undefined);
});
