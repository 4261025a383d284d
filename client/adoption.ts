/**
 * Servers of VS Code's own mcp.json that Grimoire also serves: said once per server (how many tools
 * and tokens VS Code lists besides Grimoire's list), and moved, on the user's consent in a modal,
 * into a spell file (client/adoption-files.ts), with a backup and an undo command.
 */
import * as vscode from 'vscode';
import { resolvePaths } from '../protocol/grimoire-paths.js';
import * as protocol from '../protocol/extension-methods.js';
import type { ListedTwiceInfo, TokenReportInfo } from '../protocol/records.js';
import { adopt, adoptions, planAdoption, undoAdoption, type Adoption, type UndoOutcome } from './adoption-files.js';
import type { GatewayClient } from './gateway-client.js';
import type { PowerNode } from './powers-tree.js';

const OFFERED_KEY = 'grimoire.adoptionOffered';
const ROUTE = 'Route Through Grimoire Alone...';

/** `confirmed`: the caller already has the user's consent (tests; the palette and the tree always ask). */
export interface RouteArgs {
  power: string;
  confirmed?: boolean;
}

export type RouteOutcome = { ok: true; adoption: Adoption } | { ok: false; message: string };

type PowerArgument = string | RouteArgs | PowerNode | undefined;

export function registerAdoption(gateway: GatewayClient, state: vscode.Memento): vscode.Disposable[] {
  const paths = () => resolvePaths(process.env);
  let offering = false;
  const offer = (report: TokenReportInfo) => {
    if (offering) return;
    const asked = new Set(state.get<string[]>(OFFERED_KEY, []));
    const next = report.toolsList.listedTwice.find((entry) => !asked.has(offerKey(entry)));
    if (!next) return;
    offering = true;
    void state.update(OFFERED_KEY, [...asked, offerKey(next)]);
    void vscode.window
      .showInformationMessage(
        `Grimoire: VS Code also offers "${next.power}" to the agent directly (from ${vscode.workspace.asRelativePath(next.file)}): its ${next.tools} tools (${next.tokens} tokens) are listed twice when Grimoire activates it, and on every request even when it does not.`,
        ROUTE,
        'Not Now',
      )
      .then((choice) => {
        offering = false;
        if (choice === ROUTE) void route(gateway, paths(), { power: next.power });
        // One offer at a time: the next server's once this one is answered or dismissed.
        else if (gateway.tokenReport) offer(gateway.tokenReport);
      });
  };
  return [
    gateway.onDidChangeTokenReport(offer),
    vscode.commands.registerCommand('grimoire.routeThroughGrimoire', (arg?: PowerArgument) => route(gateway, paths(), argOf(arg))),
    vscode.commands.registerCommand('grimoire.undoRouteThroughGrimoire', (arg?: PowerArgument) => undo(gateway, paths().data, argOf(arg)?.power)),
  ];
}

function offerKey(entry: ListedTwiceInfo): string {
  return `${entry.file}#${entry.power}`;
}

function argOf(arg: PowerArgument): RouteArgs | undefined {
  if (typeof arg === 'string') return { power: arg };
  if (!arg) return undefined;
  if ('kind' in arg) return arg.kind === 'power' || arg.kind === 'tool' ? { power: arg.power.name } : undefined;
  return arg;
}

async function route(gateway: GatewayClient, paths: { data: string; home: string }, arg: RouteArgs | undefined): Promise<RouteOutcome | undefined> {
  const power = arg?.power ?? (await pickListedTwice(gateway));
  if (!power) return undefined;
  const info = gateway.power(power);
  if (!info || info.source.kind !== 'vscode-mcp') return refuse(`"${power}" is not a server of VS Code's mcp.json that Grimoire serves.`);
  const plan = planAdoption(power, info.source.file, paths.home);
  if (!plan.ok) return refuse(plan.message);
  const twice = gateway.tokenReport?.toolsList.listedTwice.find((entry) => entry.power === power);
  if (!arg?.confirmed) {
    const cost = twice ? `its ${twice.tools} tools (${twice.tokens} tokens)` : 'its tools';
    const choice = await vscode.window.showWarningMessage(
      `Route "${power}" through Grimoire alone?`,
      {
        modal: true,
        detail:
          `Grimoire moves the "${plan.key}" entry out of ${plan.mcpFile} into ${plan.spellFile}. VS Code then no longer offers ${cost} to the agent directly: ` +
          `they reach it when Grimoire activates "${power}". A copy of the mcp.json is kept in Grimoire's data folder, and "Grimoire: Undo Routing Through Grimoire" puts the entry back.`,
      },
      'Move It',
    );
    if (choice !== 'Move It') return undefined;
  }
  const adoption = adopt(plan, { description: info.description, keywords: info.keywords }, paths.data);
  // The gateway reads the spell and the mcp.json again now: the power must come from the spell, or the move is undone.
  const reloaded = await gateway.request(protocol.reloadPowers, null);
  const moved = reloaded.powers.find((p) => p.name === power);
  if (moved?.source.file !== adoption.spellFile) {
    const problems = reloaded.issues.filter((issue) => issue.file === adoption.spellFile).map((issue) => issue.message);
    undoAdoption(adoption, paths.data);
    await gateway.request(protocol.reloadPowers, null);
    return refuse(`the spell written for "${power}" did not load${problems.length ? ` (${problems.join('; ')})` : ''}, so its entry was put back into ${adoption.mcpFile}.`);
  }
  gateway.channel.info(`"${power}" moved from ${adoption.mcpFile} into ${adoption.spellFile}; backup ${adoption.backupFile}`);
  void vscode.window.showInformationMessage(`Grimoire: "${power}" now reaches the agent through Grimoire alone (${vscode.workspace.asRelativePath(adoption.spellFile)}).`, 'Undo', 'Open Spell').then((choice) => {
    if (choice === 'Undo') void undo(gateway, paths.data, power);
    if (choice === 'Open Spell') void vscode.window.showTextDocument(vscode.Uri.file(adoption.spellFile));
  });
  return { ok: true, adoption };
}

async function undo(gateway: GatewayClient, dataDir: string, power: string | undefined): Promise<UndoOutcome | undefined> {
  const moved = adoptions(dataDir);
  let adoption = power ? moved.filter((a) => a.power === power).at(-1) : undefined;
  if (!adoption && !power) {
    const picked = await vscode.window.showQuickPick(
      moved.map((a) => ({ label: a.power, description: `back into ${vscode.workspace.asRelativePath(a.mcpFile)}`, detail: `moved ${a.at}`, adoption: a })),
      { placeHolder: moved.length ? 'Put a server back into its mcp.json' : 'No server was routed through Grimoire alone' },
    );
    adoption = picked?.adoption;
  }
  if (!adoption) {
    if (power) void vscode.window.showWarningMessage(`Grimoire: "${power}" was not moved out of an mcp.json by Grimoire.`);
    return undefined;
  }
  const outcome = undoAdoption(adoption, dataDir);
  await gateway.request(protocol.reloadPowers, null);
  const parts = [
    outcome.restored ? `"${adoption.key}" is back in ${vscode.workspace.asRelativePath(adoption.mcpFile)}` : `${vscode.workspace.asRelativePath(adoption.mcpFile)} already had "${adoption.key}": left as it is`,
    outcome.keptSpell ? `${outcome.keptSpell} was edited since the move and is kept: delete it to let VS Code's entry be the power` : undefined,
  ].filter(Boolean);
  void vscode.window.showInformationMessage(`Grimoire: ${parts.join('; ')}.`);
  return outcome;
}

async function pickListedTwice(gateway: GatewayClient): Promise<string | undefined> {
  const fromMcpJson = gateway.powers.filter((power) => power.source.kind === 'vscode-mcp');
  if (fromMcpJson.length === 0) {
    void vscode.window.showInformationMessage("Grimoire: no power comes from VS Code's mcp.json: nothing is listed twice.");
    return undefined;
  }
  const twice = new Map((gateway.tokenReport?.toolsList.listedTwice ?? []).map((entry) => [entry.power, entry]));
  const picked = await vscode.window.showQuickPick(
    fromMcpJson.map((power) => {
      const entry = twice.get(power.name);
      return { label: power.name, description: entry ? `${entry.tools} tools, ${entry.tokens} tokens listed twice` : 'tools not listed yet', detail: power.source.file, name: power.name };
    }),
    { placeHolder: 'Which server should reach the agent through Grimoire alone?' },
  );
  return picked?.name;
}

function refuse(message: string): RouteOutcome {
  void vscode.window.showWarningMessage(`Grimoire: ${message}`);
  return { ok: false, message };
}
