import { parseArgs } from 'node:util';

export interface CliArgs {
  command: string[];
  stdio: boolean;
  http: boolean;
  port?: number;
  json: boolean;
  demo: boolean;
  spells?: string[];
  workspace?: string;
  imports: boolean;
  callTimeoutMs?: number;
  limit: number;
  servers?: string;
  tools?: string;
  queries?: string;
  level: 'server' | 'tool';
  queryField: 'query' | 'task_description';
  semantic: 'on' | 'off';
  /** `bench --learn-split N`: replay N queries per power as history, measure the rest before and after. */
  learnSplit?: number;
  benchmarks?: string;
  write: boolean;
  tune: boolean;
  intentType?: string;
  status?: string;
  power?: string;
  tool?: string;
  since?: string;
  until?: string;
  argsJson?: string;
  reason?: string;
  sensitivity?: string;
  proceed: boolean;
  database?: string;
  host?: string;
  tlsCert?: string;
  tlsKey?: string;
  behindProxy?: string;
  admin: boolean;
  /** `tools confirm-read --all`: every tool that awaits the user's word. */
  all: boolean;
  user?: string;
  /** `serve --trust-workspace`: start the workspace's and imported configs' servers without asking (CI). */
  trustWorkspace: boolean;
  /** `serve --admin-token-file F`: read the admin token from F (mode 0600) instead of GRIMOIRE_ADMIN_TOKEN. */
  adminTokenFile?: string;
  help: boolean;
  version: boolean;
}

export class UsageError extends Error {}

export function parseCliArgs(argv: string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        stdio: { type: 'boolean', default: false },
        http: { type: 'boolean', default: false },
        port: { type: 'string' },
        json: { type: 'boolean', default: false },
        demo: { type: 'boolean', default: false },
        spells: { type: 'string', multiple: true },
        workspace: { type: 'string' },
        'no-imports': { type: 'boolean', default: false },
        'call-timeout': { type: 'string' },
        limit: { type: 'string' },
        servers: { type: 'string' },
        tools: { type: 'string' },
        queries: { type: 'string' },
        level: { type: 'string', default: 'server' },
        'query-field': { type: 'string', default: 'query' },
        semantic: { type: 'string', default: 'off' },
        'learn-split': { type: 'string' },
        benchmarks: { type: 'string' },
        write: { type: 'boolean', default: false },
        tune: { type: 'boolean', default: false },
        'intent-type': { type: 'string' },
        status: { type: 'string' },
        power: { type: 'string' },
        tool: { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        args: { type: 'string' },
        reason: { type: 'string' },
        sensitivity: { type: 'string' },
        proceed: { type: 'boolean', default: false },
        database: { type: 'string' },
        host: { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'behind-proxy': { type: 'string' },
        admin: { type: 'boolean', default: false },
        all: { type: 'boolean', default: false },
        user: { type: 'string' },
        'trust-workspace': { type: 'boolean', default: false },
        'admin-token-file': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  return {
    command: positionals,
    trustWorkspace: values['trust-workspace'],
    adminTokenFile: values['admin-token-file'],
    stdio: values.stdio,
    http: values.http,
    port: values.port === undefined ? undefined : positiveInt('--port', values.port, true),
    json: values.json,
    demo: values.demo,
    spells: values.spells,
    workspace: values.workspace,
    imports: !values['no-imports'],
    callTimeoutMs:
      values['call-timeout'] === undefined ? undefined : positiveInt('--call-timeout', values['call-timeout']),
    limit: values.limit === undefined ? 50 : positiveInt('--limit', values.limit),
    servers: values.servers,
    tools: values.tools,
    queries: values.queries,
    level: oneOf('--level', values.level, ['server', 'tool'] as const),
    queryField: oneOf('--query-field', values['query-field'], ['query', 'task_description'] as const),
    semantic: oneOf('--semantic', values.semantic, ['on', 'off'] as const),
    learnSplit: values['learn-split'] === undefined ? undefined : positiveInt('--learn-split', values['learn-split']),
    benchmarks: values.benchmarks,
    write: values.write,
    tune: values.tune,
    intentType: values['intent-type'],
    status: values.status,
    power: values.power,
    tool: values.tool,
    since: values.since,
    until: values.until,
    argsJson: values.args,
    reason: values.reason,
    sensitivity: values.sensitivity,
    proceed: values.proceed,
    database: values.database,
    host: values.host,
    tlsCert: values['tls-cert'],
    tlsKey: values['tls-key'],
    behindProxy: values['behind-proxy'],
    admin: values.admin,
    all: values.all,
    user: values.user,
    help: values.help,
    version: values.version,
  };
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got '${value}'.`);
  return value as T;
}

function positiveInt(flag: string, text: string, allowZero = false): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1))
    throw new UsageError(`${flag} needs a whole number, got '${text}'.`);
  return value;
}

export const USAGE = `grimoire: one MCP gateway in front of all your MCP servers ("powers").

Usage:
  grimoire serve --stdio [options]          serve MCP over stdio (Claude Desktop, the MCP Inspector, scripts)
  grimoire serve --http [--port N] [options] serve Streamable HTTP on 127.0.0.1; prints {"url","token"} as JSON
        [--host ADDR (--tls-cert F --tls-key F | --behind-proxy PROXY_ADDR)]  bind another address (a team gateway)
  grimoire powers list [--json] [options]   list the configured powers and any problems with them (and the
                                            servers from the workspace or an imported config waiting for approval)
  grimoire powers approve <name> [options]  let that power's server run: approves its command as listed (a changed
                                            command asks again; --workspace DIR for a workspace's powers)
  grimoire resolve "<query>" [--json] [options]  rank powers for a request without activating any
  grimoire events [--json] [--limit N]      the event log: power starts, stops and crashes
  grimoire bench [--servers F [--tools F] --queries F | --benchmarks DIR] [--level server|tool]
                 [--query-field query|task_description] [--semantic off|on] [--json]
                                            the resolver over a routing data set (default: every development
                                            set of test/fixtures/benchmarks); prints metrics as JSON
  grimoire calibrate [--benchmarks DIR] [--write]  fit the confidence model on the development sets
  grimoire stats [--json] [--tune]          recommendation quality (MRR, precision@k) from history; --tune refits the ranking weights
  grimoire users add NAME [--admin] | users list [--json] | users remove NAME
                                            gateway users: add prints the user's token once
  grimoire activity list [--user NAME] [--intent-type T] [--status S] [--power P] [--tool X] [--since D] [--until D] [--json] [--limit N]
                                            the calls the agent made, newest first
  grimoire hints [--power P] [--json]      the hint network: prerequisites, next actions (declared and learned), follow rates
  grimoire call tool-read|tool-write|tool-destructive <power:tool> --args '<json>' [--reason TEXT] [--sensitivity LEVEL] [--proceed]
                                            call a tool with a declared intent, validated and logged like an agent's call;
                                            --proceed runs it although a prerequisite it declares has not run
  grimoire activity rate <id> up|down|clear     rate a call: ratings feed the ranking
  grimoire tools changes [--power P] [--json]  tools held for review: changed since approved, or new (with the diff)
  grimoire tools approve <power:tool> | --power P  approve the new version; the tool is exposed again
  grimoire tools reject <power:tool>          keep it blocked
  grimoire tools reads [--power P] [--json]   tools Grimoire believes only read, no annotation declares: confirm them once
  grimoire tools confirm-read <power:tool> | --power P | --all   confirm them read-only (call_tool_read; auto-approvable reads)
  grimoire tools unconfirm-read <power:tool>  take a confirmation back
  grimoire spells check [FILE|DIR]... [--json]  check spell files (default: $GRIMOIRE_HOME and ./.grimoire);
                                            prints file:line:col: severity: message, exits 1 on errors

Options:
  --demo               add the bundled demo powers (filesystem, memory, everything)
  --spells DIR         read spell files from DIR instead of $GRIMOIRE_HOME (repeatable)
  --workspace DIR      also read DIR/.grimoire/ spells and DIR/.vscode/mcp.json
  --no-imports         do not import VS Code, Claude Desktop, Cursor or Kiro configs
  --call-timeout MS    fail a tool call that takes longer (default 60000)
  --trust-workspace    serve: start servers from the workspace and imported configs without approval (CI)
  --admin-token-file F serve: read the admin token from F (mode 0600) instead of GRIMOIRE_ADMIN_TOKEN
  --database URL       keep the store in PostgreSQL (postgres://…; default: GRIMOIRE_DATABASE_URL, else the embedded store)

Environment: GRIMOIRE_HOME (spells and settings; default ~/.grimoire if it exists, else the platform's place:
  ~/.config/grimoire, ~/Library/Application Support/Grimoire, %APPDATA%\\Grimoire), GRIMOIRE_DATA (default
  $GRIMOIRE_HOME/data, or ~/.local/share/grimoire, .../Grimoire/data, %LOCALAPPDATA%\\Grimoire), GRIMOIRE_LOG (debug|info|warn|error),
  GRIMOIRE_DATABASE_URL (a team store in PostgreSQL).`;
