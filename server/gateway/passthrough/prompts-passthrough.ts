/** The active powers' prompts, named `<power>__<prompt>` like their tools, passed through to their servers. */
import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import type { Prompt } from '../../util/mcp-types.js';
import { childLists } from './child-lists.js';
import type { CallScope } from '../../upstream/client-features.js';
import { activePowersOf, type PassthroughPorts } from './passthrough-ports.js';
import { exposedToolName } from '../tool-names.js';

export interface ExposedPrompt {
  power: string;
  /** The prompt as its server names it. */
  prompt: Prompt;
  /** The prompt as the agent sees it. */
  exposed: Prompt;
}

export async function exposedPrompts(gateway: PassthroughPorts, sessionId: string): Promise<ExposedPrompt[]> {
  const lists = childLists(gateway);
  const perPower = await Promise.all(
    activePowersOf(gateway, sessionId).map(async (power) =>
      (await lists.list('prompts', power)).map((prompt) => ({
        power,
        prompt,
        exposed: {
          ...prompt,
          name: exposedToolName(power, prompt.name),
          title: `${power}: ${prompt.title ?? prompt.name}`,
        },
      })),
    ),
  );
  return perPower.flat();
}

/** The prompt an exposed name stands for; throws what the agent can act on when there is none. */
export async function findPrompt(gateway: PassthroughPorts, sessionId: string, name: string): Promise<ExposedPrompt> {
  const prompts = await exposedPrompts(gateway, sessionId);
  const found = prompts.find((p) => p.exposed.name === name);
  if (found) return found;
  const active = activePowersOf(gateway, sessionId);
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Prompt '${name}' is not available. ` +
      `${active.length ? `Prompts come from the active powers (${active.join(', ')})` : 'No power is active'}: ` +
      'list them with prompts/list, or activate the power that has it (resolve_intent).',
  );
}

export function registerPrompts(server: Server, gateway: PassthroughPorts, sessionId: string, scope: CallScope): void {
  server.setRequestHandler('prompts/list', async () => ({
    prompts: (await exposedPrompts(gateway, sessionId)).map((p) => p.exposed),
  }));
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const target = await findPrompt(gateway, sessionId, request.params.name);
    const connection = childLists(gateway).connection(target.power);
    if (!connection)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Power '${target.power}' is no longer configured.`);
    return connection.request(
      (client) => client.getPrompt({ ...request.params, name: target.prompt.name }, { signal: ctx.mcpReq.signal }),
      scope,
    );
  });
}
