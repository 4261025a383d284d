/** What the dashboard asks of the extension (protocol DashboardRequest), answered with gateway requests. */
import * as protocol from '../protocol/extension-methods.js';
import type {
  DashboardAction,
  DashboardRequest,
  DashboardState,
  DashboardUpdate,
} from '../protocol/dashboard-messages.js';
import type { GatewayClient } from './gateway-client.js';

export interface DashboardContext {
  gateway: GatewayClient;
  post(update: DashboardUpdate): void;
  /** What the panel keeps (workspace state), read and merged. */
  state(): DashboardState;
  saveState(patch: Partial<DashboardState>): Thenable<void>;
}

/** The active powers' hints come pushed; every power's are asked for. */
export async function postHints(context: DashboardContext): Promise<void> {
  const scope = context.state().hintsScope ?? 'active';
  const cached = context.gateway.hints;
  const payload = scope === 'active' && cached ? cached : await context.gateway.request(protocol.getHints, { scope });
  context.post({ type: 'hints', payload });
}

async function attempt(context: DashboardContext, action: DashboardAction, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    context.post({ type: 'failed', action, message: (error as Error).message });
  }
}

/**
 * What the page shows besides the powers. On 'ready' the page asks for its activity and hints itself
 * (with the filter and scope it restored); after the gateway restarted, everything is sent again.
 */
export async function postInsights(context: DashboardContext, all: boolean): Promise<void> {
  const { gateway } = context;
  await Promise.all([
    attempt(context, 'tune', async () =>
      context.post({
        type: 'recommendations',
        stats: gateway.recommendationStats ?? (await gateway.request(protocol.getRecommendationStats, null)),
      }),
    ),
    attempt(context, 'tokens', async () =>
      context.post({
        type: 'tokens',
        report: gateway.tokenReport ?? (await gateway.request(protocol.getTokenReport, null)),
      }),
    ),
    ...(all
      ? [
          attempt(context, 'activity', async () =>
            context.post({
              type: 'activity',
              page: await gateway.request(protocol.listActivity, context.state().activityFilter ?? {}),
            }),
          ),
          attempt(context, 'hints', () => postHints(context)),
        ]
      : []),
  ]);
}

export async function handleDashboardRequest(context: DashboardContext, message: DashboardRequest): Promise<void> {
  const { gateway } = context;
  switch (message.type) {
    case 'ready':
      context.post({ type: 'restore', state: context.state() });
      context.post({ type: 'gateway', status: gateway.status, powers: gateway.powers, issues: gateway.issues });
      return postInsights(context, false);
    case 'resolve':
      return attempt(context, 'resolve', async () => {
        const result = await gateway.request(protocol.resolveIntent, { query: message.query, explain: true });
        await context.saveState({ query: message.query, result });
        context.post({ type: 'resolved', result });
      });
    case 'activate':
    case 'deactivate':
      return attempt(context, message.type, async () => {
        await gateway.request(message.type === 'activate' ? protocol.activatePower : protocol.deactivatePower, {
          name: message.name,
        });
      });
    case 'activityFilter':
      return attempt(context, 'activity', async () => {
        await context.saveState({ activityFilter: message.filter });
        context.post({ type: 'activity', page: await gateway.request(protocol.listActivity, message.filter) });
      });
    case 'rate':
      // The change comes back to every view as an activityRated notification.
      return attempt(context, 'rate', async () => void (await gateway.rate(message.id, message.rating)));
    case 'tune':
      return attempt(context, 'tune', async () => {
        const result = await gateway.request(protocol.tuneWeights, null);
        context.post({ type: 'tuned', result });
        context.post({ type: 'recommendations', stats: result.stats });
      });
    case 'hintsScope':
      return attempt(context, 'hints', async () => {
        await context.saveState({ hintsScope: message.scope });
        await postHints(context);
      });
    default:
      // A message of no declared type (the page sent it) is ignored; a declared one does not compile until handled above.
      return void (message satisfies never);
  }
}
