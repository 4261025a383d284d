/** completion/complete for an active power's prompt argument or resource template, answered by its server. */
import { ProtocolError, ProtocolErrorCode, type CompleteRequest, type Server } from '@modelcontextprotocol/server';
import { childLists } from './child-lists.js';
import type { CallScope } from '../../upstream/client-features.js';
import type { PassthroughPorts } from './passthrough-ports.js';
import { findPrompt } from './prompts-passthrough.js';
import { exposedTemplates } from './resources-passthrough.js';

async function target(
  gateway: PassthroughPorts,
  sessionId: string,
  params: CompleteRequest['params'],
): Promise<{ power: string; params: CompleteRequest['params'] }> {
  if (params.ref.type === 'ref/prompt') {
    const prompt = await findPrompt(gateway, sessionId, params.ref.name);
    return { power: prompt.power, params: { ...params, ref: { ...params.ref, name: prompt.prompt.name } } };
  }
  const uri = params.ref.uri;
  const owners = [
    ...new Set(
      (await exposedTemplates(gateway, sessionId)).filter((t) => t.template.uriTemplate === uri).map((t) => t.power),
    ),
  ];
  if (owners.length !== 1) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      owners.length
        ? `Template '${uri}' is offered by ${owners.join(' and ')}: it cannot be completed unambiguously.`
        : `Template '${uri}' is not offered by an active power.`,
    );
  }
  return { power: owners[0], params };
}

export function registerCompletion(
  server: Server,
  gateway: PassthroughPorts,
  sessionId: string,
  scope: CallScope,
): void {
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const found = await target(gateway, sessionId, request.params);
    const connection = childLists(gateway).connection(found.power);
    if (!connection)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Power '${found.power}' is no longer configured.`);
    return connection.request(async (client) => {
      if (!client.getServerCapabilities()?.completions) return { completion: { values: [] } };
      return client.complete(found.params, { signal: ctx.mcpReq.signal });
    }, scope);
  });
}
