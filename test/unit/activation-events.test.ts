import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../helpers/temp.js';

interface Manifest {
  engines: { vscode: string };
  activationEvents: string[];
  contributes: {
    commands?: Array<{ command: string }>;
    views?: Record<string, Array<{ id: string }>>;
    languages?: Array<{ id: string; configuration?: string }>;
    mcpServerDefinitionProviders?: Array<{ id: string }>;
    walkthroughs?: Array<{ id: string }>;
    customEditors?: Array<{ viewType: string }>;
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;

/**
 * The activation events VS Code (1.74 and later) derives from an extension's contributions: each
 * extension point's `activationEventsGenerator` in VS Code's sources, for the points this manifest uses.
 */
function impliedEvents(contributes: Manifest['contributes']): string[] {
  return [
    ...(contributes.commands ?? []).map((command) => `onCommand:${command.command}`),
    ...Object.values(contributes.views ?? {}).flatMap((views) => views.map((view) => `onView:${view.id}`)),
    ...(contributes.languages ?? [])
      .filter((language) => language.configuration)
      .map((language) => `onLanguage:${language.id}`),
    ...(contributes.mcpServerDefinitionProviders ?? []).map((provider) => `onMcpCollection:${provider.id}`),
    ...(contributes.walkthroughs ?? []).map((walkthrough) => `onWalkthrough:${walkthrough.id}`),
    ...(contributes.customEditors ?? []).map((editor) => `onCustomEditor:${editor.viewType}`),
  ];
}

test('package.json lists only the activation events its contributions do not imply', () => {
  assert.match(manifest.engines.vscode, /^\^1\.(7[4-9]|[89]\d|\d{3,})\./, 'an engine that derives activation events');
  const implied = new Set(impliedEvents(manifest.contributes));
  assert.deepEqual(
    manifest.activationEvents.filter((event) => implied.has(event)),
    [],
  );
  assert.ok(!manifest.activationEvents.includes('*'), 'never activates on *');
});

test('the extension still activates when VS Code asks for its MCP server, opens its views or runs its commands', () => {
  const events = new Set([...manifest.activationEvents, ...impliedEvents(manifest.contributes)]);
  for (const event of [
    'onMcpCollection:grimoire.gateway',
    'onView:grimoire.powers',
    'onCommand:grimoire.openDashboard',
    'onLanguage:grimoire-spell',
    // A dashboard left open is restored after a reload by its panel serializer: no contribution implies it.
    'onWebviewPanel:grimoire.dashboard',
    'onStartupFinished',
  ])
    assert.ok(events.has(event), event);
});
