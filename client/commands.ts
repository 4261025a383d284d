/** The palette commands (category "Grimoire") and the Powers tree's inline actions. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resolvePaths } from '../shared/grimoire-paths.js';
import * as protocol from '../protocol/extension-methods.js';
import type * as records from '../protocol/records.js';
import type { Dashboard } from './dashboard.js';
import type { GatewayClient } from './gateway-client.js';
import { explainNothingToPick, showActivationFailure } from './next-steps.js';
import { powerPicks, resolveTitle, scorePick, type PickModel } from './picks.js';
import type { PowerNode } from './powers-tree.js';
import { createFile, readForEdit } from './file-write.js';
import {
  describeEntry,
  keywordQuery,
  mcpEntries,
  SPELL_NAME,
  spellFileName,
  spellFromMcpEntry,
  spellName,
  templateSpell,
  type McpEntry,
} from './spell-template.js';
import { activationMessage } from './tree-items.js';

/** `grimoire.newSpellFile` arguments, for callers that already know (the palette asks instead). */
export interface NewSpellOptions {
  from?: 'template' | { file: string; key: string };
  name?: string;
  folder?: string;
  /** For an entry of VS Code's own mcp.json: `move` routes it (the user already agreed), `copy` leaves it; asked when absent. */
  entry?: 'move' | 'copy';
}

type PowerArgument = string | PowerNode | undefined;

export function registerCommands(gateway: GatewayClient, dashboard: Dashboard): vscode.Disposable[] {
  const commands: Record<string, (...args: never[]) => unknown> = {
    'grimoire.activatePower': (arg: PowerArgument) => activate(gateway, arg),
    'grimoire.deactivatePower': (arg: PowerArgument) => deactivate(gateway, arg),
    // The tree's inline buttons: named for what they do at once, on the row's power.
    'grimoire.activateThisPower': (arg: PowerArgument) => (nameOf(arg) ? activate(gateway, arg) : undefined),
    'grimoire.deactivateThisPower': (arg: PowerArgument) => (nameOf(arg) ? deactivate(gateway, arg) : undefined),
    'grimoire.resolveIntent': (query?: string) => resolveIntent(gateway, query),
    'grimoire.openDashboard': () => dashboard.show(),
    'grimoire.reloadPowers': () => reload(gateway),
    'grimoire.newSpellFile': (options?: NewSpellOptions) => newSpellFile(gateway, options ?? {}),
    'grimoire.openSpellFile': (arg: PowerArgument) => openSpellFile(gateway, arg),
    'grimoire.restartGateway': () => gateway.restart(),
    'grimoire.showOutput': () => gateway.channel.show(true),
  };
  return Object.entries(commands).map(([id, run]) => vscode.commands.registerCommand(id, run));
}

function nameOf(arg: PowerArgument): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && (arg.kind === 'power' || arg.kind === 'tool')) return arg.power.name;
  return undefined;
}

async function pickPower(items: PickModel[], placeHolder: string): Promise<string | undefined> {
  const picked = await vscode.window.showQuickPick(items, {
    placeHolder,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.name;
}

async function activate(gateway: GatewayClient, arg: PowerArgument): Promise<records.PowerInfo | undefined> {
  let name = nameOf(arg);
  if (!name) {
    const picks = powerPicks(gateway.powers, 'activate').filter((pick) => !gateway.power(pick.name)?.active);
    if (picks.length === 0) {
      void explainNothingToPick(gateway, 'activate');
      return undefined;
    }
    name = await pickPower(picks, "Activate a power: its tools join the agent's list");
  }
  if (!name) return undefined;
  try {
    const info = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Grimoire: activating ${name}` },
      () => gateway.request(protocol.activatePower, { name }),
    );
    const held = info.awaitingReview?.length ? ['Review changes'] : [];
    void vscode.window.showInformationMessage(activationMessage(info), ...held).then((choice) => {
      if (choice) void vscode.commands.executeCommand('grimoire.reviewToolChanges', { power: info.name });
    });
    return info;
  } catch (error) {
    void showActivationFailure(gateway, name, (error as Error).message, gateway.power(name));
    return undefined;
  }
}

async function deactivate(gateway: GatewayClient, arg: PowerArgument): Promise<records.PowerInfo | undefined> {
  let name = nameOf(arg);
  if (!name) {
    const picks = powerPicks(gateway.powers, 'deactivate');
    if (picks.length === 0) {
      void explainNothingToPick(gateway, 'deactivate');
      return undefined;
    }
    name = await pickPower(picks, 'Deactivate a power: its server stops and its tools leave the list');
  }
  if (!name) return undefined;
  try {
    const info = await gateway.request(protocol.deactivatePower, { name });
    void vscode.window.showInformationMessage(`Grimoire: '${name}' is deactivated; its tools left the agent's list.`);
    return info;
  } catch (error) {
    void vscode.window.showErrorMessage(`Grimoire: ${(error as Error).message}`);
    return undefined;
  }
}

async function resolveIntent(gateway: GatewayClient, given?: string): Promise<records.ResolveResult | undefined> {
  const query =
    given ??
    (await vscode.window.showInputBox({
      title: 'Grimoire: Resolve Intent',
      prompt: 'Describe what you want to do; every power is scored and the tier shown.',
      placeHolder: 'e.g. read a file from my project',
      validateInput: (value) => (value.trim() ? undefined : 'Type a request.'),
    }));
  if (!query?.trim()) return undefined;
  if (gateway.status.health === 'ready' && gateway.powers.length === 0) {
    void explainNothingToPick(gateway, 'resolve');
    return undefined;
  }
  let result: records.ResolveResult;
  try {
    result = await gateway.request(protocol.resolveIntent, { query });
  } catch (error) {
    void vscode.window.showErrorMessage(`Grimoire: ${(error as Error).message}`);
    return undefined;
  }
  gateway.channel.info(
    `resolve "${query}": ${result.tier} (${result.scores.map((s) => `${s.name} ${s.confidence}`).join(', ')})`,
  );
  const active = new Set(gateway.powers.filter((power) => power.active).map((power) => power.name));
  const picked = await vscode.window.showQuickPick(
    result.scores.map((score) => scorePick(score, result.candidates, active)),
    { title: resolveTitle(result, active), placeHolder: 'Nothing was activated: pick a power to activate it' },
  );
  if (picked) await activate(gateway, picked.name);
  return result;
}

async function reload(gateway: GatewayClient): Promise<records.PowersPayload | undefined> {
  try {
    const payload = await gateway.request(protocol.reloadPowers, null);
    const problems = payload.issues.length ? `, ${payload.issues.length} problem(s): see the Powers view` : '';
    void vscode.window.showInformationMessage(`Grimoire: ${payload.powers.length} power(s) loaded${problems}.`);
    return payload;
  } catch (error) {
    void vscode.window.showErrorMessage(`Grimoire: ${(error as Error).message}`);
    return undefined;
  }
}

async function openSpellFile(gateway: GatewayClient, arg: PowerArgument): Promise<vscode.TextEditor | undefined> {
  let name = nameOf(arg);
  if (!name) {
    if (gateway.powers.length === 0) {
      void explainNothingToPick(gateway, 'open');
      return undefined;
    }
    name = await pickPower(
      gateway.powers.map((power) => ({
        name: power.name,
        label: power.name,
        description: power.source.kind,
        detail: power.source.file,
      })),
      'Open the file a power comes from',
    );
  }
  const power = name ? gateway.power(name) : undefined;
  if (!power) return undefined;
  const editor = await vscode.window.showTextDocument(vscode.Uri.file(power.source.file), { preview: false });
  if (power.source.kind === 'demo') {
    // A bundled demo spell belongs to the extension: an edit would be lost with the next update.
    await vscode.commands.executeCommand('workbench.action.files.setActiveEditorReadonlyInSession');
    vscode.window.setStatusBarMessage(
      'Grimoire: demo spells open read-only; New Spell File... makes one of your own',
      8000,
    );
  }
  return editor;
}

/** The mcp.json servers a spell can be made from: the workspace's and those of every imported config. */
function knownMcpEntries(gateway: GatewayClient): McpEntry[] {
  const files = new Set<string>();
  for (const folder of vscode.workspace.workspaceFolders ?? [])
    files.add(path.join(folder.uri.fsPath, '.vscode', 'mcp.json'));
  for (const power of gateway.powers)
    if (power.source.readOnly && power.source.kind !== 'demo') files.add(power.source.file);
  return [...files].flatMap((file) => {
    // Size-checked: a huge config is not parsed on the extension host's thread.
    const read = readForEdit(file);
    return read.ok ? mcpEntries(file, read.text) : [];
  });
}

function spellFolder(options: NewSpellOptions): string {
  if (options.folder) return options.folder;
  const workspace = vscode.workspace.workspaceFolders?.[0];
  if (workspace) return path.join(workspace.uri.fsPath, '.grimoire');
  return resolvePaths(process.env).home;
}

async function newSpellFile(gateway: GatewayClient, options: NewSpellOptions): Promise<vscode.TextEditor | undefined> {
  let from = options.from;
  if (!from) {
    const entries = knownMcpEntries(gateway);
    const picked = await vscode.window.showQuickPick(
      [
        { label: '$(new-file) From a template', from: 'template' as const },
        ...entries.map((entry) => ({
          label: `$(json) From ${describeEntry(entry)}`,
          detail: entry.file,
          from: { file: entry.file, key: entry.key },
        })),
      ],
      { placeHolder: 'Start a spell file from a template or from a server you already have' },
    );
    from = picked?.from;
  }
  if (!from) return undefined;
  const workspaceFolder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  let name = options.name;
  let text: string;
  if (from === 'template') {
    name ??= await vscode.window.showInputBox({
      title: 'Grimoire: New Spell File',
      prompt: 'The power name (lowercase letters, digits and "-")',
      value: 'my-power',
      validateInput: (value) => (SPELL_NAME.test(value) ? undefined : 'Use lowercase letters, digits and "-" only.'),
    });
    if (!name) return undefined;
    text = templateSpell(name);
  } else {
    const source = from;
    const entry = knownMcpEntries(gateway).find(
      (candidate) => candidate.file === source.file && candidate.key === source.key,
    );
    if (!entry) throw new Error(`No server "${source.key}" in ${source.file}.`);
    name ??= spellName(entry.key);
    const imported = gateway.powers.find(
      (power) => power.source.file === entry.file && power.name === spellName(entry.key),
    );
    // A spell beside the entry in VS Code's list would list its tools twice: routing moves the entry instead.
    if (imported?.source.kind === 'vscode-mcp' && !options.folder && name === imported.name) {
      const choice =
        options.entry === 'move'
          ? 'Move It'
          : options.entry === 'copy'
            ? 'Copy Only'
            : await vscode.window.showInformationMessage(
                `Grimoire: move "${entry.key}" out of ${vscode.workspace.asRelativePath(entry.file)} into the spell?`,
                {
                  modal: true,
                  detail:
                    `Otherwise VS Code keeps offering its tools to the agent directly, and they are listed twice. ` +
                    `The mcp.json is backed up, and "Grimoire: Undo Routing Through Grimoire" puts the entry back.`,
                },
                'Move It',
                'Copy Only',
              );
      if (choice === undefined) return undefined;
      if (choice === 'Move It') {
        const routed = (await vscode.commands.executeCommand('grimoire.routeThroughGrimoire', {
          power: imported.name,
          confirmed: true,
        })) as { ok: boolean; adoption?: { spellFile: string } } | undefined;
        return routed?.ok && routed.adoption
          ? vscode.window.showTextDocument(vscode.Uri.file(routed.adoption.spellFile), { preview: false })
          : undefined;
      }
    }
    // \${workspaceFolder} keeps its meaning in the workspace's own .grimoire/: written out only elsewhere.
    const inWorkspace =
      workspaceFolder !== undefined &&
      path.resolve(spellFolder(options)) === path.resolve(workspaceFolder, '.grimoire');
    const known = imported && {
      description: imported.description,
      toolNames: imported.tools.map((tool) => tool.name),
    };
    text = spellFromMcpEntry(entry, {
      ...(inWorkspace ? {} : { workspaceFolder }),
      ...(known ? { known } : {}),
      keywords: await gateway.request(protocol.spellKeywords, keywordQuery(entry, known)),
    });
  }
  if (!SPELL_NAME.test(name)) throw new Error(`'${name}' is not a power name: use lowercase letters, digits and "-".`);
  const file = path.join(spellFolder(options), spellFileName(name));
  // lstat: a link planted under the spell's name (even a dangling one) is never written through.
  if (fs.lstatSync(file, { throwIfNoEntry: false })) {
    void vscode.window.showWarningMessage(`Grimoire: ${file} already exists; opened it instead.`);
  } else {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    createFile(file, text, 0o644);
  }
  return vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
}
