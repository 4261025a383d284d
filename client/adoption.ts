/**
 * Servers of VS Code's own mcp.json that Grimoire also serves: offered as soon as their tools are
 * known (one offer naming every server not answered yet, with its tools and tokens; "Not Now" is
 * remembered per server, a server added later is offered then), and moved, on the user's consent
 * in a modal, into a spell file (client/adoption-files.ts), with a backup and an undo command.
 */
import * as vscode from 'vscode';
import { resolvePaths } from '../shared/grimoire-paths.js';
import * as protocol from '../protocol/extension-methods.js';
import type { TokenReportInfo } from '../protocol/records.js';
import { offerKey, offerText, openOffers, reportIsBehind } from './adoption-offer.js';
import {
  AdoptionError,
  adopt,
  adoptionKeywordQuery,
  planAdoption,
  readRecords,
  undoAdoption,
  type Adoption,
  type UndoOutcome,
} from './adoption-files.js';
import type { GatewayClient } from './gateway-client.js';
import type { PowerNode } from './powers-tree.js';

const DECLINED_KEY = 'grimoire.adoptionDeclined';
const ROUTE = 'Route Through Grimoire Alone...';
const TOOLS_WAIT_MS = 20_000;

/** `confirmed`: the caller already has the user's consent (tests, New Spell File); the palette and the tree always ask. */
export interface RouteArgs {
  power: string;
  confirmed?: boolean;
}

export type RouteOutcome = { ok: true; adoption: Adoption } | { ok: false; message: string };

type PowerArgument = string | RouteArgs | PowerNode | undefined;
type Paths = { data: string; home: string };

export function registerAdoption(gateway: GatewayClient, state: vscode.Memento): vscode.Disposable[] {
  const paths = (): Paths => resolvePaths(process.env);
  const offers = new Offers(gateway, state, (powers) => routeMany(gateway, paths(), powers));
  return [
    gateway.onDidChangeTokenReport((report) => offers.consider(report)),
    // Tools listed in the background after start arrive with the powers: the report is asked for then.
    gateway.onDidChangePowers(() => offers.refreshIfNew()),
    vscode.commands.registerCommand('grimoire.routeThroughGrimoire', (arg?: PowerArgument) =>
      route(gateway, paths(), argOf(arg)),
    ),
    vscode.commands.registerCommand('grimoire.undoRouteThroughGrimoire', (arg?: PowerArgument) =>
      undo(gateway, paths().data, argOf(arg)?.power),
    ),
  ];
}

/**
 * The offers on screen: each names the listed-twice servers not answered yet and not in another
 * offer still on screen, so that a server added later is offered at once (VS Code cannot take a
 * notification back, so an unanswered one never holds the next).
 */
class Offers {
  private asking = false;
  /** The powers changed while a report was being asked for: that report may predate them. */
  private askAgain = false;
  /** The newest report seen: the gateway's pushed one, or the one asked for here. */
  private report: TokenReportInfo | undefined;
  /** In an offer on screen now. */
  private readonly pending = new Set<string>();
  /** Answered in this window without a lasting "Not Now" (the move was chosen: done, cancelled or failed). */
  private readonly answered = new Set<string>();

  constructor(
    private readonly gateway: GatewayClient,
    private readonly state: vscode.Memento,
    private readonly routeAll: (powers: string[]) => Promise<unknown>,
  ) {}

  private notToOffer(): Set<string> {
    return new Set([...this.state.get<string[]>(DECLINED_KEY, []), ...this.answered, ...this.pending]);
  }

  /** A server of VS Code's mcp.json whose tools are known but not in the last report yet: ask for a fresh one. */
  refreshIfNew(): void {
    if (this.asking) {
      this.askAgain = true;
      return;
    }
    if (!reportIsBehind(this.gateway.powers, this.report ?? this.gateway.tokenReport, this.notToOffer())) return;
    this.asking = true;
    void this.gateway
      .request(protocol.getTokenReport, null)
      .then((report) => this.consider(report))
      .catch(() => undefined)
      .finally(() => {
        this.asking = false;
        if (!this.askAgain) return;
        this.askAgain = false;
        this.refreshIfNew();
      });
  }

  consider(report: TokenReportInfo): void {
    this.report = report;
    const open = openOffers(report, this.notToOffer());
    if (open.length === 0) return;
    const keys = open.map(offerKey);
    for (const key of keys) this.pending.add(key);
    const text = offerText(open, (file) => vscode.workspace.asRelativePath(file));
    void vscode.window.showInformationMessage(text, ROUTE, 'Not Now').then(async (choice) => {
      for (const key of keys) {
        this.pending.delete(key);
        this.answered.add(key);
      }
      // Closed or "Not Now": remembered per server, in this workspace.
      if (choice !== ROUTE)
        await this.state.update(DECLINED_KEY, [...new Set([...this.state.get<string[]>(DECLINED_KEY, []), ...keys])]);
      else await this.routeAll(open.map((entry) => entry.power)).catch(() => undefined);
    });
  }
}

function argOf(arg: PowerArgument): RouteArgs | undefined {
  if (typeof arg === 'string') return { power: arg };
  if (!arg) return undefined;
  if ('kind' in arg) return arg.kind === 'power' || arg.kind === 'tool' ? { power: arg.power.name } : undefined;
  return arg;
}

/** Several servers, one consent: each is then moved as `route` moves one. */
async function routeMany(gateway: GatewayClient, paths: Paths, powers: string[]): Promise<void> {
  if (powers.length === 1) {
    await route(gateway, paths, { power: powers[0]! });
    return;
  }
  const choice = await vscode.window.showWarningMessage(
    `Route ${powers.length} servers through Grimoire alone?`,
    {
      modal: true,
      detail:
        `Grimoire moves ${powers.map((p) => `"${p}"`).join(', ')} out of VS Code's mcp.json into spell ` +
        `files; VS Code then no longer offers their tools to the agent directly. ` +
        `The mcp.json is backed up first, and "Grimoire: Undo Routing Through Grimoire" puts each entry back.`,
    },
    'Move Them',
  );
  if (choice !== 'Move Them') return;
  for (const power of powers) await route(gateway, paths, { power, confirmed: true });
}

async function route(
  gateway: GatewayClient,
  paths: Paths,
  arg: RouteArgs | undefined,
): Promise<RouteOutcome | undefined> {
  const power = arg?.power ?? (await pickListedTwice(gateway));
  if (!power) return undefined;
  let confirmed = arg?.confirmed ?? false;
  let changed = false;
  // The spell says what the server's tools are about: a server added a moment ago is listed in the background first.
  if (gateway.power(power)?.tools.length === 0) await toolsListed(gateway, power, TOOLS_WAIT_MS);
  for (;;) {
    const info = gateway.power(power);
    if (!info || info.source.kind !== 'vscode-mcp')
      return refuse(`"${power}" is not a server of VS Code's mcp.json that Grimoire serves.`);
    const plan = planAdoption(power, info.source.file, paths.home);
    if (!plan.ok) return refuse(plan.message);
    if (!confirmed && !(await consent(gateway, power, plan.key, plan.mcpFile, plan.spellFile, changed)))
      return undefined;
    try {
      const known = { description: info.description, toolNames: info.tools.map((tool) => tool.name) };
      const keywords = await gateway.request(protocol.spellKeywords, adoptionKeywordQuery(plan, known));
      return await finish(gateway, paths, power, adopt(plan, { ...known, keywords }, paths.data));
    } catch (error) {
      // The entry changed after the user agreed: they are asked again about the entry as it is now.
      if (error instanceof AdoptionError && error.stale && !changed) {
        changed = true;
        confirmed = false;
        continue;
      }
      return refuse(`"${power}" was not moved: ${(error as Error).message}`);
    }
  }
}

/**
 * Waits (with a progress notification) until the power's tools are known, at most `ms`; the spell then has a
 * placeholder the editor flags.
 */
async function toolsListed(gateway: GatewayClient, power: string, ms: number): Promise<void> {
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Grimoire: listing the tools of "${power}" for its spell...`,
    },
    () =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          listener.dispose();
          resolve();
        };
        const timer = setTimeout(done, ms);
        const listener = gateway.onDidChangePowers(() => {
          if ((gateway.power(power)?.tools.length ?? 0) > 0) done();
        });
      }),
  );
}

async function consent(
  gateway: GatewayClient,
  power: string,
  key: string,
  mcpFile: string,
  spellFile: string,
  changed: boolean,
): Promise<boolean> {
  const twice = gateway.tokenReport?.toolsList.listedTwice.find((entry) => entry.power === power);
  const cost = twice ? `its ${twice.tools} tools (${twice.tokens} tokens)` : 'its tools';
  const choice = await vscode.window.showWarningMessage(
    changed
      ? `"${key}" changed in ${vscode.workspace.asRelativePath(mcpFile)} since you agreed: route it as it is now?`
      : `Route "${power}" through Grimoire alone?`,
    {
      modal: true,
      detail:
        `Grimoire moves the "${key}" entry out of ${mcpFile} into ${spellFile}. ` +
        `VS Code then no longer offers ${cost} to the agent directly: ` +
        `they reach it when Grimoire activates "${power}". A copy of the mcp.json is kept in Grimoire's data ` +
        `folder, a secret of the entry goes to a file only you can read (not into the spell), ` +
        `and "Grimoire: Undo Routing Through Grimoire" puts the entry back.`,
    },
    'Move It',
  );
  return choice === 'Move It';
}

async function finish(
  gateway: GatewayClient,
  paths: Paths,
  power: string,
  adoption: Adoption & { recordsSetAside?: string },
): Promise<RouteOutcome> {
  // The gateway reads the spell and the mcp.json again now: the power must come from the spell, or the move is undone.
  const reloaded = await gateway.request(protocol.reloadPowers, null);
  const moved = reloaded.powers.find((p) => p.name === power);
  if (moved?.source.file !== adoption.spellFile) {
    const problems = reloaded.issues.filter((issue) => issue.file === adoption.spellFile).map((issue) => issue.message);
    undoAdoption(adoption, paths.data);
    await gateway.request(protocol.reloadPowers, null);
    return refuse(
      `the spell written for "${power}" did not load${problems.length ? ` (${problems.join('; ')})` : ''}, ` +
        `so its entry was put back into ${adoption.mcpFile}.`,
    );
  }
  gateway.channel.info(
    `"${power}" moved from ${adoption.mcpFile} into ${adoption.spellFile}; backup ${adoption.backupFile}`,
  );
  if (adoption.recordsSetAside)
    void vscode.window.showWarningMessage(
      `Grimoire: the routing records could not be read and were kept as ${adoption.recordsSetAside}; ` +
        `the backups of earlier moves are beside it.`,
    );
  void vscode.window
    .showInformationMessage(
      `Grimoire: "${power}" now reaches the agent through Grimoire alone (${vscode.workspace.asRelativePath(adoption.spellFile)}).`,
      'Undo',
      'Open Spell',
    )
    .then((choice) => {
      if (choice === 'Undo') void undo(gateway, paths.data, power);
      if (choice === 'Open Spell') void vscode.window.showTextDocument(vscode.Uri.file(adoption.spellFile));
    });
  return { ok: true, adoption };
}

async function undo(
  gateway: GatewayClient,
  dataDir: string,
  power: string | undefined,
): Promise<UndoOutcome | undefined> {
  const { records: moved, damaged } = readRecords(dataDir);
  if (damaged)
    void vscode.window.showWarningMessage(
      `Grimoire: ${damaged}. It is kept as it is; the backups of the moved mcp.json files are in ${dataDir}.`,
    );
  let adoption = power ? moved.filter((a) => a.power === power).at(-1) : undefined;
  if (!adoption && !power) {
    const picked = await vscode.window.showQuickPick(
      moved.map((a) => ({
        label: a.power,
        description: `back into ${vscode.workspace.asRelativePath(a.mcpFile)}`,
        detail: `moved ${a.at}`,
        adoption: a,
      })),
      {
        placeHolder: moved.length
          ? 'Put a server back into its mcp.json'
          : 'No server was routed through Grimoire alone',
      },
    );
    adoption = picked?.adoption;
  }
  if (!adoption) {
    if (power)
      void vscode.window.showWarningMessage(`Grimoire: "${power}" was not moved out of an mcp.json by Grimoire.`);
    return undefined;
  }
  let outcome: UndoOutcome;
  try {
    outcome = undoAdoption(adoption, dataDir);
  } catch (error) {
    void vscode.window.showWarningMessage(`Grimoire: ${(error as Error).message}`);
    return undefined;
  }
  await gateway.request(protocol.reloadPowers, null);
  const file = vscode.workspace.asRelativePath(adoption.mcpFile);
  const parts = [
    outcome.restored === 'exact'
      ? `${file} is as it was before the move`
      : outcome.restored === 'entry'
        ? `"${adoption.key}" is back in ${file}`
        : `${file} already had "${adoption.key}": left as it is`,
    outcome.keptSpell
      ? `${outcome.keptSpell} was edited since the move and is kept: delete it to let VS Code's entry be the power`
      : undefined,
    outcome.removedFolders.length
      ? `removed the folder${outcome.removedFolders.length > 1 ? 's' : ''} it had created ` +
        `(${outcome.removedFolders.map((dir) => vscode.workspace.asRelativePath(dir)).join(', ')})`
      : undefined,
    `the exact copy of the file before the move is ${outcome.backupFile}`,
  ].filter(Boolean);
  void vscode.window.showInformationMessage(`Grimoire: ${parts.join('; ')}.`);
  return outcome;
}

async function pickListedTwice(gateway: GatewayClient): Promise<string | undefined> {
  const fromMcpJson = gateway.powers.filter((power) => power.source.kind === 'vscode-mcp');
  if (fromMcpJson.length === 0) {
    void vscode.window.showInformationMessage(
      "Grimoire: no power comes from VS Code's mcp.json: nothing is listed twice.",
    );
    return undefined;
  }
  const twice = new Map((gateway.tokenReport?.toolsList.listedTwice ?? []).map((entry) => [entry.power, entry]));
  const picked = await vscode.window.showQuickPick(
    fromMcpJson.map((power) => {
      const entry = twice.get(power.name);
      return {
        label: power.name,
        description: entry ? `${entry.tools} tools, ${entry.tokens} tokens listed twice` : 'tools not listed yet',
        detail: power.source.file,
        name: power.name,
      };
    }),
    { placeHolder: 'Which server should reach the agent through Grimoire alone?' },
  );
  return picked?.name;
}

function refuse(message: string): RouteOutcome {
  void vscode.window.showWarningMessage(`Grimoire: ${message}`);
  return { ok: false, message };
}
