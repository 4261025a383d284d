/**
 * What the agent reads, in tokens (o200k_base, js-tiktoken), through the gateway versus with the
 * demo powers' servers connected directly:
 *   1. the gateway's tools/list before any activation;
 *   2. each demo power activated alone: its exposed tools, and its guidance (given once, in the
 *      activation answer), against its server's own tools/list; the target is exposed tools <=
 *      direct tools/list + guidance once;
 *   3. a scripted task per power (tools/list, resolve_intent, activate_power when not activated,
 *      tools/list again, one call) against direct exposure of all demo powers (the powers configured
 *      here), counted per model request as the dashboard and `grimoire stats` count
 *      (protocol/request-model.ts): each tool call is one request carrying the tool
 *      list of that moment, and each answer and result is read once (gateway: resolve_intent,
 *      activate_power when needed and the call; direct: the call alone, carrying every demo tool).
 * Prints JSON.   Run: npm run bench:tokens
 */
import * as path from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { directTokens, requestTokens, toolListText } from '../../protocol/request-model.js';
import { connectStdio, gatewayEnv, payload } from '../helpers/gateway-process.js';
import { connectDirect, demoServerArgs, tokensOf } from '../helpers/demo-powers-direct.js';
import { tempDir } from '../helpers/temp.js';

type Power = 'filesystem' | 'memory' | 'everything';

const TASKS: Record<Power, { query: string; tool: string; args: Record<string, unknown> }> = {
  filesystem: { query: 'read a file from my project', tool: 'read_text_file', args: { path: 'README.md' } },
  memory: { query: 'remember facts in my knowledge graph', tool: 'search_nodes', args: { query: 'Alice' } },
  everything: { query: 'echo a test message back', tool: 'echo', args: { message: 'hello from the benchmark' } },
};

/** What the agent reads of a tool result: the text of its content (structured content repeats it). */
/** A tool list's tokens, from the text the dashboard and `grimoire stats` count (each tool whole, as listed). */
const listTokens = (tools: Tool[]) => tokensOf(toolListText(tools));
const resultTokens = (result: CallToolResult) =>
  tokensOf((result.content ?? []).map((item) => (item.type === 'text' ? item.text : JSON.stringify(item))).join('\n'));

async function main(): Promise<void> {
  const home = tempDir();
  const servers = demoServerArgs(path.join(home.dir, 'direct-memory.jsonl'));
  const direct = {} as Record<Power, { tools: Tool[]; rawResult: number }>;
  for (const name of Object.keys(servers) as Power[]) {
    const client = await connectDirect(servers[name]);
    const task = TASKS[name];
    const args = name === 'filesystem' ? { path: path.join(servers.filesystem.args[1]!, 'README.md') } : task.args;
    const tools = (await client.listTools()).tools;
    const result = (await client.callTool({ name: task.tool, arguments: args })) as CallToolResult;
    direct[name] = { tools, rawResult: resultTokens(result) };
    await client.close();
  }
  const allDirect = Object.values(direct).flatMap((d) => d.tools);

  const session = await connectStdio(
    ['--demo', '--no-imports'],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
  );
  const list = async () => (await session.client.listTools()).tools;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await session.client.callTool({ name, arguments: args })) as CallToolResult;
  const before = await list();
  const perPower: Record<string, unknown> = {};
  const tasks: Record<string, unknown> = {};
  try {
    for (const name of Object.keys(direct) as Power[]) {
      const activated = await call('activate_power', { name });
      const guidance = (payload(activated).guidance as string | undefined) ?? '';
      const exposed = (await list()).filter((tool) => tool.name.startsWith(`${name}__`));
      const exposedTokens = listTokens(exposed);
      const directTokens = listTokens(direct[name].tools);
      const guidanceTokens = guidance ? tokensOf(guidance) : 0;
      perPower[name] = {
        tools: exposed.length,
        exposed_tokens: exposedTokens,
        direct_tokens: directTokens,
        guidance_once_tokens: guidanceTokens,
        activation_answer_tokens: resultTokens(activated),
        within_target: exposedTokens <= directTokens + guidanceTokens,
      };
      await call('deactivate_power', { name });
    }
    for (const name of Object.keys(direct) as Power[]) {
      const task = TASKS[name];
      const steps: Record<string, number> = { tools_list: listTokens(await list()) };
      const resolved = await call('resolve_intent', { query: task.query });
      steps.resolve_intent = resultTokens(resolved);
      if (payload(resolved).status !== 'activated')
        steps.activate_power = resultTokens(await call('activate_power', { name }));
      steps.tools_list_after = listTokens(await list());
      // The demo filesystem power serves its copy of the demo project in the data folder.
      const args =
        name === 'filesystem' ? { path: path.join(home.dir, 'data', 'demo-project', 'README.md') } : task.args;
      const result = await call(`${name}__${task.tool}`, args);
      if (result.isError) throw new Error(`${name}__${task.tool} failed: ${JSON.stringify(result.content)}`);
      steps.call = resultTokens(result);
      const answers = steps.resolve_intent + (steps.activate_power ?? 0);
      const directList = listTokens(allDirect);
      // resolve_intent (and activate_power) are asked for with the list before activation; the call with the list after it.
      const gatewayRequests = requestTokens(
        [steps.tools_list, ...(steps.activate_power === undefined ? [] : [steps.tools_list]), steps.tools_list_after],
        answers + steps.call,
      );
      const directRequests = directTokens(1, directList, direct[name].rawResult);
      tasks[name] = {
        query: task.query,
        resolved: payload(resolved).status,
        gateway_steps: steps,
        direct_steps: { tools_list: directList, call: direct[name].rawResult },
        per_model_request: {
          gateway: { requests: gatewayRequests.requests, tokens: gatewayRequests.tokens },
          direct: { requests: directRequests.requests, tokens: directRequests.tokens },
          saved: round(1 - gatewayRequests.tokens / directRequests.tokens),
        },
      };
      await call('deactivate_power', { name });
    }
  } finally {
    await session.client.close();
    home.cleanup();
  }

  const result = {
    tokenizer: 'o200k_base',
    gateway_before_activation: { tools: before.length, tokens: listTokens(before) },
    demo_powers_direct: {
      tools: allDirect.length,
      tokens: listTokens(allDirect),
      per_power: Object.fromEntries(
        Object.entries(direct).map(([name, d]) => [name, { tools: d.tools.length, tokens: listTokens(d.tools) }]),
      ),
    },
    saved_before_activation: round(1 - listTokens(before) / listTokens(allDirect)),
    each_power_activated: perPower,
    scripted_task_per_power: tasks,
  };
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
}

const round = (x: number) => Math.round(x * 1000) / 1000;

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
