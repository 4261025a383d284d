/**
 * Captures the summary benchmark's corpus from real MCP servers (npm packages in node_modules,
 * started as child processes, no gateway in between) and a real gateway: each raw result is
 * written to test/fixtures/results/captured/ with its manifest entry: the call that produced it,
 * the facts a reader needs from it (chosen by a rule written here, from the data, before any
 * summary is looked at) and questions whose answer is a string of the result.
 *
 * Run: npm run bench:capture-results
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectDirect, demoServerArgs } from '../helpers/demo-powers-direct.js';
import { connectHttp, gatewayEnv, startHttpGateway } from '../helpers/gateway-process.js';
import { repoRoot, tempDir } from '../helpers/temp.js';

export interface CapturedEntry {
  file: string;
  /** power:tool as the gateway would see the call. */
  tool: string;
  args: Record<string, unknown>;
  source: string;
  note: string;
  facts: string[];
  /** Facts that are paths in a JSON tree (reachable when the tree holds that path). */
  facts_are_paths?: boolean;
  questions: Array<{ query: string; answer: string }>;
}

const out = path.join(repoRoot, 'test', 'fixtures', 'results', 'captured');
const modules = path.join(repoRoot, 'node_modules', '@modelcontextprotocol');
const version = (pkg: string) =>
  (JSON.parse(fs.readFileSync(path.join(modules, pkg, 'package.json'), 'utf8')) as { version: string }).version;
const textOf = (result: CallToolResult) =>
  (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
/** Paths in the captured files are relative to the repository, so that the corpus is the same on any machine. */
const scrub = (text: string, ...roots: string[]) => roots.reduce((t, root) => t.split(root).join('<root>'), text);

async function main(): Promise<void> {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const entries: CapturedEntry[] = [];
  const temp = tempDir('grimoire-capture-');
  const save = (entry: CapturedEntry, text: string) => {
    entry.questions = entry.questions.filter((q) => q.answer !== '' && text.includes(q.answer));
    fs.writeFileSync(path.join(out, entry.file), text);
    entries.push(entry);
  };
  try {
    // --- filesystem, rooted at this repository ---------------------------------------------------
    const fsServer = await connectDirect({
      args: [path.join(modules, 'server-filesystem', 'dist', 'index.js'), repoRoot, temp.dir],
    });
    const fsSource = `@modelcontextprotocol/server-filesystem ${version('server-filesystem')}`;
    const fsCall = async (tool: string, args: Record<string, unknown>) =>
      scrub(textOf((await fsServer.callTool({ name: tool, arguments: args })) as CallToolResult), repoRoot, temp.dir);

    const tree = await fsCall('directory_tree', { path: path.join(repoRoot, 'server') });
    save(
      {
        file: 'fs-directory-tree-server.json',
        tool: 'filesystem:directory_tree',
        args: { path: '<root>/server' },
        source: fsSource,
        note: "directory_tree of this repository's server/ folder",
        facts: [
          'intel/artifacts/artifact-store.ts',
          'gateway/gateway.ts',
          'store/migrations.ts',
          'resolve/semantic/embedder.ts',
          'intel/tokens/token-worker.ts',
        ],
        facts_are_paths: true,
        questions: [
          { query: 'which files are in the tokens folder of intel', answer: 'token-worker.ts' },
          { query: 'where is the porter stemmer', answer: 'porter-stemmer.ts' },
        ],
      },
      tree,
    );

    const hits = await fsCall('search_files', { path: path.join(repoRoot, 'server'), pattern: '**/*.ts' });
    save(
      {
        file: 'fs-search-files-ts.txt',
        tool: 'filesystem:search_files',
        args: { path: '<root>/server', pattern: '**/*.ts' },
        source: fsSource,
        note: 'search_files for every .ts file under server/ (search hits, one path a line)',
        facts: [
          '<root>/server/gateway/gateway.ts',
          '<root>/server/intel/intel.ts',
          '<root>/server/resolve/porter-stemmer.ts',
        ],
        questions: [
          { query: 'path of the http guard source file', answer: '<root>/server/gateway/http-guard.ts' },
          { query: 'calibration source file path', answer: '<root>/server/resolve/calibration.ts' },
        ],
      },
      hits,
    );

    const listing = await fsCall('list_directory', { path: path.join(repoRoot, 'node_modules') });
    save(
      {
        file: 'fs-list-node-modules.txt',
        tool: 'filesystem:list_directory',
        args: { path: '<root>/node_modules' },
        source: fsSource,
        note: "list_directory of this repository's node_modules (one [DIR]/[FILE] entry a line)",
        facts: ['zod', 'yaml', 'sql.js', 'js-tiktoken', 'esbuild'],
        questions: [
          { query: 'is the js-tiktoken package installed', answer: 'js-tiktoken' },
          { query: 'playwright core package', answer: 'playwright-core' },
        ],
      },
      listing,
    );

    const sizes = await fsCall('list_directory_with_sizes', {
      path: path.join(repoRoot, 'server', 'intel', 'local'),
      sortBy: 'size',
    });
    save(
      {
        file: 'fs-list-sizes-intel-local.txt',
        tool: 'filesystem:list_directory_with_sizes',
        args: { path: '<root>/server/intel/local', sortBy: 'size' },
        source: fsSource,
        note: 'list_directory_with_sizes of server/intel/local, largest first',
        facts: ['json-summary.ts', 'compact.ts', 'local-summarizer.ts'],
        questions: [{ query: 'size of csv.ts', answer: 'csv.ts' }],
      },
      sizes,
    );

    const csvFile = path.join(repoRoot, 'node_modules', '@vscode', 'codicons', 'dist', 'codicon.csv');
    const csv = await fsCall('read_text_file', { path: csvFile });
    const csvRows = csv
      .split('\n')
      .filter((line) => line.includes(','))
      .slice(1)
      .map((line) => line.split(','));
    const unicodeOf = (name: string) => csvRows.find((row) => row[0] === name)?.[2] ?? '';
    save(
      {
        file: 'fs-codicon.csv',
        tool: 'filesystem:read_text_file',
        args: { path: '<root>/node_modules/@vscode/codicons/dist/codicon.csv' },
        source: `${fsSource}, reading @vscode/codicons' codicon.csv`,
        note: 'a CSV of every codicon: short_name, character, unicode',
        facts: [String(csvRows.length), 'short_name', 'unicode', 'account', unicodeOf('account')],
        questions: [
          { query: 'unicode of the debug-alt icon', answer: unicodeOf('debug-alt') },
          { query: 'which codepoint does the sparkle icon use', answer: unicodeOf('sparkle') },
          { query: 'unicode of the zap icon', answer: unicodeOf('zap') },
        ],
      },
      csv,
    );

    // A system log, as the filesystem server serves its last 500 lines.
    const logReader = await connectDirect({
      args: [path.join(modules, 'server-filesystem', 'dist', 'index.js'), '/var/log'],
    });
    const dpkg = textOf(
      (await logReader.callTool({
        name: 'read_text_file',
        arguments: { path: '/var/log/dpkg.log', tail: 500 },
      })) as CallToolResult,
    );
    await logReader.close();
    if (dpkg.split('\n').length > 100) {
      const changed = (action: string) => [
        ...new Set(
          dpkg
            .split('\n')
            .filter((line) => line.split(' ')[2] === action)
            .map((line) => line.split(' ')[3]!),
        ),
      ];
      const installed = changed('install');
      save(
        {
          file: 'fs-dpkg-log-tail.log',
          tool: 'filesystem:read_text_file',
          args: { path: '/var/log/dpkg.log', tail: 500 },
          source: `${fsSource}, reading this machine's /var/log/dpkg.log`,
          note: "the last 500 lines of dpkg's log: installs, upgrades, status changes",
          // Every package installed or upgraded in these lines.
          facts: [...installed, ...changed('upgrade')],
          questions: installed
            .slice(0, 3)
            .map((pkg) => ({ query: `when was ${pkg.split(':')[0]} installed`, answer: pkg })),
        },
        dpkg,
      );
    }

    // --- memory: a real graph ----------------------------------------------------------------------
    const memServer = await connectDirect({
      args: [path.join(modules, 'server-memory', 'dist', 'index.js')],
      env: { MEMORY_FILE_PATH: path.join(temp.dir, 'memory.jsonl') },
    });
    const memSource = `@modelcontextprotocol/server-memory ${version('server-memory')}`;
    const teams = ['payments', 'search', 'identity', 'storage', 'billing', 'mobile'];
    const people = Array.from({ length: 80 }, (_, i) => ({
      name: `Engineer ${i} ${['Okafor', 'Lindqvist', 'Tanaka', 'Moreau', 'Ivanova'][i % 5]}`,
      entityType: 'person',
      observations: [
        `Joined the ${teams[i % 6]} team in ${2015 + (i % 10)}`,
        `On call every ${['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'][i % 5]}`,
      ],
    }));
    const services = teams.map((team, i) => ({
      name: `${team}-service`,
      entityType: 'service',
      observations: [
        `Owned by the ${team} team`,
        `Runs on cluster eu-${i + 1}`,
        i === 3 ? 'Deprecated: migrate to storage-v2 before March' : `Healthy since release ${40 + i}`,
      ],
    }));
    await memServer.callTool({ name: 'create_entities', arguments: { entities: [...people, ...services] } });
    await memServer.callTool({
      name: 'create_relations',
      arguments: {
        relations: people.map((p, i) => ({
          from: p.name,
          to: `${teams[i % 6]}-service`,
          relationType: i % 4 === 0 ? 'maintains' : 'works_on',
        })),
      },
    });
    const graph = textOf((await memServer.callTool({ name: 'read_graph', arguments: {} })) as CallToolResult);
    save(
      {
        file: 'memory-read-graph.json',
        tool: 'memory:read_graph',
        args: {},
        source: memSource,
        note: 'read_graph of a graph of 80 people and 6 services with 80 relations, built through create_entities / create_relations',
        facts: [
          'Engineer 0 Okafor',
          'Engineer 41 Lindqvist',
          'Engineer 79 Ivanova',
          'storage-service',
          'maintains',
          'works_on',
        ],
        questions: [
          { query: 'which cluster does the identity-service run on', answer: 'Runs on cluster eu-3' },
          { query: 'which day is Engineer 42 Tanaka on call', answer: 'On call every Wednesday' },
          { query: 'what must happen to storage-service', answer: 'migrate to storage-v2' },
        ],
      },
      graph,
    );
    const found = textOf(
      (await memServer.callTool({ name: 'search_nodes', arguments: { query: 'payments' } })) as CallToolResult,
    );
    save(
      {
        file: 'memory-search-nodes.json',
        tool: 'memory:search_nodes',
        args: { query: 'payments' },
        source: memSource,
        note: "search_nodes for 'payments'",
        facts: ['payments-service', 'Engineer 0 Okafor', 'Engineer 78 Moreau'],
        questions: [{ query: 'when did Engineer 6 Okafor join', answer: 'Joined the payments team in 2021' }],
      },
      found,
    );

    // --- everything ----------------------------------------------------------------------------------
    const servers = demoServerArgs(path.join(temp.dir, 'unused.jsonl'));
    const every = await connectDirect(servers.everything);
    const evSource = `@modelcontextprotocol/server-everything ${version('server-everything')}`;
    const env = textOf((await every.callTool({ name: 'get-env', arguments: {} })) as CallToolResult);
    save(
      {
        file: 'everything-get-env.json',
        tool: 'everything:get-env',
        args: {},
        source: evSource,
        note: "get-env: the server's environment (PATH only was passed)",
        facts: ['PATH'],
        questions: [{ query: 'the PATH variable', answer: 'PATH' }],
      },
      scrub(env, repoRoot, temp.dir),
    );
    const links = ((await every.callTool({ name: 'get-resource-links', arguments: { count: 10 } })) as CallToolResult)
      .content;
    save(
      {
        file: 'everything-resource-links.json',
        tool: 'everything:get-resource-links',
        args: { count: 10 },
        source: evSource,
        note: 'get-resource-links with count 10: its content items (text and resource links) as JSON',
        // The first and the last link.
        facts: [
          links.find((c) => c.type === 'resource_link'),
          links.findLast((c) => c.type === 'resource_link'),
        ].flatMap((c) => (c && 'uri' in c ? [String(c.uri)] : [])),
        questions: [],
      },
      JSON.stringify(links, null, 2),
    );
    const weather = (await every.callTool({
      name: 'get-structured-content',
      arguments: { location: 'Chicago' },
    })) as CallToolResult;
    save(
      {
        file: 'everything-structured-content.json',
        tool: 'everything:get-structured-content',
        args: { location: 'Chicago' },
        source: evSource,
        note: 'get-structured-content: its structured content',
        facts: ['temperature'],
        questions: [],
      },
      JSON.stringify(weather.structuredContent ?? {}, null, 2),
    );
    await Promise.all([fsServer.close(), memServer.close(), every.close()]);

    // --- a real gateway: its REST API (a JSON API response) and its debug log -----------------------
    const home = path.join(temp.dir, 'home');
    fs.mkdirSync(home, { recursive: true });
    // Real trouble for the log: a server that exits at once, a spell that does not parse, a variable that is not set.
    const node = JSON.stringify(process.execPath);
    fs.writeFileSync(
      path.join(home, 'crashy.spell.yaml'),
      `name: crashy\nversion: 1.0.0\ndescription: Exits at once.\nkeywords: ` +
        `[crash, exit, test]\nserver:\n  command: ${node}\n  args: [-e, "process.exit(3)"]\n`,
    );
    fs.writeFileSync(path.join(home, 'broken.spell.yaml'), 'name: Broken Name!\nkeywords: [one\n');
    fs.writeFileSync(
      path.join(home, 'vault.spell.yaml'),
      `name: vault\nversion: 1.0.0\ndescription: Secrets.\nkeywords: ` +
        `[vault, secret, key]\nserver:\n  command: ${node}\n  env:\n    VAULT_TOKEN: \${VAULT_TOKEN}\n`,
    );
    const gateway = await startHttpGateway(['--demo', '--no-imports'], {
      ...gatewayEnv({ home, data: path.join(home, 'data') }),
      GRIMOIRE_LOG: 'debug',
    });
    try {
      const { client } = await connectHttp(gateway.url, gateway.token);
      const call = (name: string, args: Record<string, unknown>) =>
        client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
      await call('activate_power', { name: 'everything' });
      await call('activate_power', { name: 'memory' });
      for (let i = 0; i < 40; i++) await call('everything__echo', { message: `ping ${i}` });
      for (let i = 0; i < 12; i++) await call('everything__get-sum', { a: i, b: i * 2 });
      for (const name of ['Release 4.2', 'Incident 9912', 'Customer Acme'])
        await call('memory__add_observations', { observations: [{ entityName: name, contents: ['note'] }] });
      await call('call_tool_read', {
        name: 'memory:create_entities',
        args: { entities: [] },
        intent: { operation_type: 'read' },
      });
      await call('call_tool_read', {
        name: 'everything:trigger-long-running-operation',
        args: { duration: 0.1, steps: 1 },
        intent: { operation_type: 'read' },
      });
      await call('memory__open_nodes', { names: ['Nobody'] });
      for (let i = 0; i < 3; i++) await call('activate_power', { name: 'crashy' });
      await call('activate_power', { name: 'vault' });
      await call('call_tool_read', { name: 'crashy:anything', args: {}, intent: { operation_type: 'read' } });
      await client.close();
      const base = new URL(gateway.url);
      const response = await fetch(`${base.origin}/api/v1/activity?limit=100`, {
        headers: { Authorization: `Bearer ${gateway.token}` },
      });
      const api = (await response.json()) as {
        activity: Array<{ id: string; status: string; error?: string | null; tool: string }>;
      };
      const failed = api.activity.filter((row) => row.status !== 'ok');
      const apiText = scrub(JSON.stringify(api, null, 2), repoRoot, temp.dir);
      const errorRow = failed.find((row) => row.error);
      save(
        {
          file: 'gateway-rest-activity.json',
          tool: 'grimoire:activity_api',
          args: { limit: 100 },
          source: 'grimoire serve --http --demo: GET /api/v1/activity?limit=100 after 60 calls',
          note: 'a JSON API response: the activity log, with every call that did not succeed',
          // Every call that did not succeed, by id: the records a reader must not miss.
          facts: failed.map((row) => row.id),
          questions: errorRow
            ? [{ query: `what went wrong with ${errorRow.tool}`, answer: String(errorRow.error).slice(0, 40) }]
            : [],
        },
        apiText,
      );
    } finally {
      await gateway.stop();
    }
    // The log as the filesystem server serves it, from a file in the folder it may read.
    const logFile = path.join(temp.dir, 'grimoire-debug.log');
    fs.writeFileSync(logFile, gateway.stderr.join(''));
    const reader = await connectDirect({
      args: [path.join(modules, 'server-filesystem', 'dist', 'index.js'), temp.dir],
    });
    const served = textOf(
      (await reader.callTool({ name: 'read_text_file', arguments: { path: logFile } })) as CallToolResult,
    );
    await reader.close();
    const log = scrub(served, repoRoot, temp.dir).replace(/Bearer [A-Za-z0-9_-]+/g, 'Bearer <token>');
    const logLines = log.split('\n').filter((line) => / (warn|error) /.test(line));
    save(
      {
        file: 'gateway-debug.log',
        tool: 'filesystem:read_text_file',
        args: { path: '<root>/grimoire-debug.log', tail: 400 },
        source: 'grimoire serve --http --demo with GRIMOIRE_LOG=debug: its stderr during the session above',
        note: "a real debug log: the gateway's own lines, one a line with ISO time, level and scope",
        // Every warning and error line's message (after time, level and scope).
        facts: logLines
          .map((line) => line.replace(/^\S+\s+\w+\s+\[[^\]]+\]\s*/, '').slice(0, 60))
          .filter((fact, i, all) => fact && all.indexOf(fact) === i),
        questions: [
          { query: 'on which address did the gateway listen', answer: '127.0.0.1' },
          { query: 'why can the vault power not start', answer: 'VAULT_TOKEN' },
        ],
      },
      log,
    );
  } finally {
    temp.cleanup();
  }
  fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(entries, null, 2) + '\n');
  process.stdout.write(`captured ${entries.length} results into ${path.relative(repoRoot, out)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
