/**
 * A server runs only once the user approved what runs. A power whose launch definition comes from
 * the workspace (`.grimoire/` spells, `.vscode/mcp.json`, a workspace's Cursor or Kiro config) or
 * from another tool's config (VS Code, Claude Desktop, Cursor, Kiro) is pinned like a tool: its
 * server starts only after the user approved that exact definition (`serverHash`: the command,
 * arguments, environment and folder as they run, or the URL and headers), and any change asks
 * again. The user's own spells (their Grimoire folder, `--spells`) and the demo powers never ask;
 * a headless `serve --trust-workspace` (CI) trusts everything it loads.
 *
 * Approvals come from where the user is (the editor's modal, `grimoire powers approve`, the REST
 * API with the admin token), never from an MCP session. Another process's approval (the CLI) is
 * seen here at the next check; 'change' is emitted when the approved set moved.
 */
import { EventEmitter } from 'node:events';
import * as path from 'node:path';
import type { PowerDefinition, ServerSpec } from '../powers/types.js';
import type { Store } from '../store/store.js';
import { PolledTable } from '../store/polled-table.js';
import { maskSecrets } from '../util/secrets.js';
import { fromWorkspace } from './quarantine-policy.js';

const TABLE = 'launch_approvals';

export type LaunchOrigin = 'user' | 'workspace' | 'imported';

export interface LaunchScope {
  /** The workspace's own spell folder (`<workspace>/.grimoire`): a spell read from it asks first. */
  workspaceSpells?: string;
  /** `serve --trust-workspace`: nothing asks (a headless run with no user to ask, such as CI). */
  trustAll?: boolean;
}

/** What waits for the user's approval: the power's launch as it would run (secret values masked). */
export interface LaunchWait {
  origin: Exclude<LaunchOrigin, 'user'>;
  command: string;
  /** The definition the approval is for: a changed definition is a new question. */
  hash: string;
}

/**
 * Where a power's launch definition comes from. Any file inside the workspace folder is the
 * workspace's, whichever spell folder read it: what an agent can write there is never the user's own.
 */
export function launchOrigin(power: PowerDefinition, workspaceSpells?: string): LaunchOrigin {
  const kind = power.source.kind;
  if (kind === 'demo') return 'user';
  if (fromWorkspace(power, workspaceSpells === undefined ? undefined : path.dirname(workspaceSpells)))
    return 'workspace';
  switch (kind) {
    case 'spell':
      return 'user';
    case 'vscode-mcp':
    case 'claude-desktop':
    case 'cursor-mcp':
    case 'kiro-power':
      return 'imported';
    default:
      throw new Error(`no launch origin for '${kind satisfies never}'`);
  }
}

/** The launch as one line a user can judge: `command arg...` with its folder and environment, or the URL with its header names. */
export function launchCommand(server: ServerSpec): string {
  if (server.transport !== 'stdio') {
    const headers = Object.keys(server.headers);
    return maskSecrets(`${server.url}${headers.length ? ` (headers: ${headers.join(', ')})` : ''}`);
  }
  const words = [server.command, ...server.args].map(quoted).join(' ');
  const env = Object.entries(server.env).map(([name, value]) => maskSecrets(`${name}=${quoted(value)}`));
  return maskSecrets(
    `${words}${server.cwd ? ` (in ${quoted(server.cwd)})` : ''}${env.length ? ` with ${env.join(' ')}` : ''}`,
  );
}

function quoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word);
}

/** What the agent (and a caller of the power) is told while the launch awaits the user's approval. */
export function awaitingLaunchText(power: PowerDefinition, wait: LaunchWait): string {
  const from = wait.origin === 'workspace' ? 'the workspace' : 'an imported config';
  return (
    `Power '${power.name}' is waiting for the user's approval to run: ` +
    `its server comes from ${from} (${power.source.file}) and Grimoire starts it only once the user ` +
    `approved this command: ${wait.command}. ` +
    `Tell the user: they can approve it in the Grimoire Powers view or with 'grimoire powers approve ${power.name}'.`
  );
}

/** An approval for a definition that is no longer the power's. */
export class LaunchChangedError extends Error {}

/** The same, as a resolve answer's flag on the candidate. */
export function awaitingLaunchFlag(power: PowerDefinition, wait: LaunchWait): string {
  return (
    `waiting for the user's approval to run ${wait.command} (they approve it in the Grimoire Powers view ` +
    `or with 'grimoire powers approve ${power.name}')`
  );
}

export class LaunchApprovals extends EventEmitter<{ change: [] }> {
  /** The approved definition's hash, by power. */
  private readonly approved: PolledTable<string>;

  constructor(
    private readonly store: Store,
    private readonly scope: LaunchScope,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.approved = new PolledTable(
      store,
      TABLE,
      () =>
        new Map(
          store
            .query<{ power: string; hash: string }>(`SELECT power, hash FROM ${TABLE}`)
            .map((row) => [row.power, row.hash]),
        ),
      (hash) => hash,
      () => this.emit('change'),
    );
  }

  /** Undefined when the power may start; otherwise what the user has to approve first. */
  waiting(power: PowerDefinition): LaunchWait | undefined {
    if (this.scope.trustAll) return undefined;
    const origin = launchOrigin(power, this.scope.workspaceSpells);
    if (origin === 'user') return undefined;
    if (this.approved.get(power.name) === power.serverHash) return undefined;
    // Not approved as far as this process knows: the user may have approved it a moment ago elsewhere (the CLI).
    this.poll();
    if (this.approved.get(power.name) === power.serverHash) return undefined;
    return { origin, command: launchCommand(power.server), hash: power.serverHash };
  }

  /** The flag a resolve answer puts on the power, while it waits. */
  flag(power: PowerDefinition): string | undefined {
    const wait = this.waiting(power);
    return wait ? awaitingLaunchFlag(power, wait) : undefined;
  }

  /** The refusal a start of the power gets, while it waits. */
  refusal(power: PowerDefinition): string | undefined {
    const wait = this.waiting(power);
    return wait ? awaitingLaunchText(power, wait) : undefined;
  }

  /**
   * Approves the power's launch definition as it is now (`by`: the team user who approved, null for
   * the owner, the CLI or the admin token). `seen`: the hash of the definition the user was shown;
   * a definition changed since is not approved (ApprovalError). Returns what was approved,
   * undefined when nothing waited.
   */
  approve(power: PowerDefinition, by: string | null = null, seen?: string): LaunchWait | undefined {
    const wait = this.waiting(power);
    if (!wait) return undefined;
    if (seen !== undefined && seen !== wait.hash) {
      throw new LaunchChangedError(
        `The launch of '${power.name}' changed since it was shown (now: ${wait.command}): ` +
          `nothing was approved. Look at it again, then approve.`,
      );
    }
    this.store.write({
      op: 'upsert',
      table: TABLE,
      row: { power: power.name, hash: wait.hash, approved_by: by, approved_at: this.now() },
    });
    this.poll();
    return wait;
  }

  /** Re-reads the approvals when another process (or this one) may have changed them; emits 'change' when they did. */
  poll(): void {
    this.approved.poll();
  }

  close(): void {
    this.approved.close();
  }
}
