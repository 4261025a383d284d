/**
 * A scripted agent over the gateway's answers, offline: the 14 real servers' captured tool lists
 * (test/fixtures/real-servers, as test/fixtures/benchmarks/real-servers/*.jsonl) with our own
 * requests, and the development sets with tool ground truth (MetaTool single and multi).
 *
 * The agent follows only what the answers say, and recognises a right tool when an answer shows
 * it (as a model reading names and descriptions would):
 *   1. resolve_intent(request). A right tool named in the answer, or an activated power that has
 *      one (its tools are now in the list): the right call comes next, after 1 gateway round trip.
 *   2. Otherwise, a right power among those shown: activate_power(it), then pick from its tools (2).
 *   3. Otherwise retrieve_tools(request) with its default limit; a right tool in it (2), else failed.
 * Every answer is built by the gateway's own code (resolve-answer.ts, retrieve-tools.ts).
 * Tokens read (o200k_base) count what each model request carries: the tool list (the gateway's own
 * tools, plus the activated power's) and every answer so far, over the requests up to and after
 * the right call; the call's own result is left out on both sides. Direct exposure: every tool of
 * every server on each of its two requests, 0 round trips.
 *
 * Run: npm run bench:agent   (GRIMOIRE_BENCHMARKS=DIR for development sets other than test/fixtures/benchmarks)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Tool } from '../../server/util/mcp-types.js';
import { benchmarksDir } from '../../server/bench/dataset.js';
import { benchAnswer, benchCatalog, answerTokens, type BenchCatalog } from '../../server/bench/answer-bench.js';
import {
  benchPowers,
  readJsonl,
  type BenchQuery,
  type BenchServer,
  type BenchTool,
} from '../../server/bench/dataset.js';
import { defaultSettings } from '../../server/config/settings.js';
import { GATEWAY_TOOLS } from '../../server/gateway/gateway-tools.js';
import { activatePowerAnswer } from '../../server/gateway/resolve-answer.js';
import { retrieveTools, type RetrievePorts } from '../../server/gateway/retrieve-tools.js';
import { SteeringLog } from '../../server/gateway/steering.js';
import { DEFAULT_WEIGHTS } from '../../server/ranking/learned-ranking.js';
import { DEFAULT_CALIBRATIONS } from '../../server/resolve/default-calibration.js';
import { HybridResolver } from '../../server/resolve/hybrid-resolver.js';
import { decideTier } from '../../server/resolve/tiers.js';
import type { PowerDefinition } from '../../server/powers/types.js';
import { repoRoot } from '../helpers/temp.js';

const benchmarks = benchmarksDir();
const realServers = path.join(repoRoot, 'test', 'fixtures', 'benchmarks', 'real-servers');

interface AgentSet {
  name: string;
  servers: string;
  tools: string;
  queries: string;
}

const SETS: AgentSet[] = [
  {
    name: 'real-servers (14 npm servers, our requests)',
    servers: path.join(realServers, 'servers.jsonl'),
    tools: path.join(realServers, 'tools.jsonl'),
    queries: path.join(realServers, 'queries.jsonl'),
  },
  ...(fs.existsSync(benchmarks)
    ? ['queries_single.jsonl', 'queries_multi.jsonl'].map((file) => ({
        name: `metatool ${file.replace(/^queries_|\.jsonl$/g, '')}`,
        servers: path.join(benchmarks, 'metatool', 'servers.jsonl'),
        tools: path.join(benchmarks, 'metatool', 'tools.jsonl'),
        queries: path.join(benchmarks, 'metatool', file),
      }))
    : []),
];

const json = (value: unknown) => JSON.stringify(value);
const tokens = (value: unknown) => answerTokens(typeof value === 'string' ? value : json(value));
const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

async function runSet(set: AgentSet) {
  const servers = readJsonl<BenchServer>(set.servers);
  // Tools are named '<server>:<tool>' as the gateway names them; ground truth follows.
  const rows = readJsonl<BenchTool>(set.tools);
  const renamed = new Map(rows.map((row) => [row.tool_id, `${row.server}:${row.name}`]));
  const tools = rows.map((row) => ({ ...row, tool_id: renamed.get(row.tool_id)! }));
  const catalog = benchCatalog(servers, tools);
  const resolver = new HybridResolver(DEFAULT_CALIBRATIONS);
  resolver.index(benchPowers(servers, tools));
  const settings = defaultSettings();
  const gatewayList = tokens(GATEWAY_TOOLS);
  const listed = (power: string) =>
    catalog.view.toolsOf(power).map((tool) => ({ ...tool, name: `${power}__${tool.name}` }));
  const direct = tokens(servers.flatMap((s) => catalog.view.toolsOf(s.server)));
  const retrievePorts = benchRetrievePorts(catalog, servers, resolver, settings);

  const outcomes: { trips: number; tokens: number; reached: boolean }[] = [];
  let session = 0;
  for (const query of readJsonl<BenchQuery>(set.queries)) {
    const right = new Set((query.gt_tool_ids ?? []).map((id) => renamed.get(id) ?? id));
    const rightPowers = new Set([...right].map((id) => id.split(':')[0]));
    const answers: number[] = [];
    let list = gatewayList;
    const requests: number[] = [list];
    const trip = (answerTokens: number, listAfter = list) => {
      answers.push(answerTokens);
      list = listAfter;
      requests.push(list + answers.reduce((a, b) => a + b, 0));
    };
    const toolRanking = await resolver.rankTools(query.query);
    const decision = decideTier(await resolver.rank(query.query), settings.resolve);
    const resolved = benchAnswer(catalog, decision, toolRanking, right);
    const activated = decision.tier === 'activated' ? decision.candidates[0].name : undefined;
    trip(resolved.tokens, activated ? list + tokens(listed(activated)) : list);
    let reached = resolved.oneTrip;
    if (!reached) {
      const shown = decision.tier === 'not_found' ? [] : decision.candidates.map((c) => c.name);
      const power = shown.find((name) => rightPowers.has(name) && name !== activated);
      if (power) {
        const answer = activatePowerAnswer(catalog.view, {
          power,
          exposed: catalog.view.toolsOf(power).map((t) => ({ tool: t.name, listedAs: `${power}__${t.name}` })),
          held: [],
        });
        trip(tokens(answer), list + tokens(listed(power)));
        reached = true;
      } else {
        const retrieved = await retrieveTools(
          retrievePorts,
          { query: query.query, limit: 10, detail: 'full' },
          `agent-${(session += 1)}`,
        );
        const text = textOf(retrieved);
        trip(tokens(text));
        reached = (JSON.parse(text).tools as { name: string }[]).some((tool) => right.has(tool.name));
      }
    }
    // The request after the right call carries the same list and answers.
    requests.push(requests.at(-1)!);
    outcomes.push({ trips: answers.length, tokens: requests.reduce((a, b) => a + b, 0), reached });
  }
  const n = outcomes.length;
  const reachedAll = outcomes.filter((o) => o.reached);
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const gatewayTokens = Math.round(mean(outcomes.map((o) => o.tokens)));
  return {
    queries: n,
    gateway: {
      reached_right_tool: round(reachedAll.length / n),
      after_1_round_trip: round(outcomes.filter((o) => o.reached && o.trips === 1).length / n),
      mean_round_trips_before_right_call: round(mean(reachedAll.map((o) => o.trips))),
      mean_tokens_read_per_task: gatewayTokens,
    },
    direct: { tools: tools.length, reached_right_tool: 1, round_trips: 0, mean_tokens_read_per_task: 2 * direct },
    gateway_tokens_over_direct: round(gatewayTokens / (2 * direct)),
  };
}

/** retrieve_tools' ports over a bench catalog: no history, no held tools, no guidance (bench powers have no spells). */
function benchRetrievePorts(
  catalog: BenchCatalog,
  servers: BenchServer[],
  resolver: HybridResolver,
  settings: ReturnType<typeof defaultSettings>,
): RetrievePorts {
  const powers = new Map(
    servers.map((s) => [
      s.server,
      { name: s.server, steering: '', description: s.description } as unknown as PowerDefinition,
    ]),
  );
  return {
    powers: () => [...powers.values()],
    power: (name) => powers.get(name),
    toolsOf: (power) => catalog.view.toolsOf(power) as Tool[],
    annotationsOf: (power, tool) => catalog.view.annotationsOf(power, tool as Tool),
    rankTools: (query) => resolver.rankTools(query),
    usage: { forTools: () => new Map() },
    recommendations: { record: () => 'not kept' },
    weights: () => DEFAULT_WEIGHTS,
    policy: {
      powerRefusal: () => undefined,
      settingsRefusal: () => undefined,
      isHeld: () => false,
      held: () => [],
      exposable: () => true,
    },
    steering: new SteeringLog(),
    settings,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const results: Record<string, unknown> = { tokenizer: 'o200k_base', gateway_tools_tokens: tokens(GATEWAY_TOOLS) };
  for (const set of SETS) results[set.name] = await runSet(set);
  if (!fs.existsSync(benchmarks))
    process.stderr.write(
      `bench:agent: no benchmarks at ${benchmarks}; set GRIMOIRE_BENCHMARKS to measure MetaTool too.\n`,
    );
  process.stdout.write(JSON.stringify(results, null, 2) + '\n');
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
