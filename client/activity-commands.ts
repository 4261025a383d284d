/** The Activity view's commands: filter by intent type, status or power, clear the filter, and rate a call. */
import * as vscode from 'vscode';
import {
  ACTIVITY_STATUSES,
  INTENT_TYPES,
  type ActivityFilterInfo,
  type ActivityRated,
  type ActivityRating,
} from '../protocol/records.js';
import type { ActivityNode, ActivityView } from './activity-view.js';
import type { GatewayClient } from './gateway-client.js';

type FilterKey = 'intentType' | 'status' | 'power';
/** A row of the view, or a call's id (from the palette's callers and the tests). */
type CallArgument = ActivityNode | string | undefined;

const ANY = '';

async function pickValue(
  key: FilterKey,
  values: readonly string[],
  current: string | undefined,
): Promise<string | undefined> {
  const noun = key === 'intentType' ? 'intent type' : key;
  const picked = await vscode.window.showQuickPick(
    [
      { label: `Any ${noun}`, value: ANY, picked: !current },
      ...values.map((value) => ({ label: value, value, description: value === current ? 'current' : undefined })),
    ],
    { placeHolder: `Show calls of one ${noun}` },
  );
  return picked?.value;
}

export function registerActivityCommands(gateway: GatewayClient, view: ActivityView): vscode.Disposable[] {
  /** Sets one part of the filter: to the given value, or to what the user picks; '' clears it. Returns the filter. */
  const filterBy =
    (key: FilterKey, values: () => readonly string[]) =>
    async (given?: string): Promise<ActivityFilterInfo | undefined> => {
      const value = given ?? (await pickValue(key, values(), view.filter[key]));
      if (value === undefined) return undefined;
      if (value !== ANY && !values().includes(value))
        throw new Error(`'${value}' is not a ${key}: use one of ${values().join(', ')}.`);
      return view.setFilter({ ...view.filter, [key]: value || undefined });
    };
  /**
   * Sets the rating the action names, whatever the view last heard: a row drawn before its rating
   * arrived still shows "Thumbs Up", and clicking it must not take the rating back.
   */
  const rate =
    (rating: ActivityRating) =>
    async (arg: CallArgument): Promise<ActivityRated | undefined> => {
      const id = typeof arg === 'string' ? arg : arg?.kind === 'call' ? arg.entry.id : undefined;
      if (!id) {
        // VS Code hands an inline action no element while the tree is being redrawn: say so, not only in the log.
        gateway.channel.warn(
          'a rating came without its call (a row of the Activity view or a call id): nothing was rated',
        );
        void vscode.window.showWarningMessage(
          'Grimoire: the thumb reached no call (the Activity view was being redrawn), so nothing was rated. Click it again.',
        );
        return undefined;
      }
      try {
        return await gateway.rate(id, rating);
      } catch (error) {
        void vscode.window.showErrorMessage(`Grimoire: ${(error as Error).message}`);
        return undefined;
      }
    };
  const commands: Record<string, (...args: never[]) => unknown> = {
    'grimoire.filterActivityByIntent': filterBy('intentType', () => INTENT_TYPES),
    'grimoire.filterActivityByStatus': filterBy('status', () => ACTIVITY_STATUSES),
    'grimoire.filterActivityByPower': filterBy('power', () => gateway.powers.map((power) => power.name)),
    'grimoire.clearActivityFilter': () => view.setFilter({}),
    'grimoire.rateActivityUp': rate(1),
    'grimoire.rateActivityDown': rate(-1),
    'grimoire.unrateActivityUp': rate(0),
    'grimoire.unrateActivityDown': rate(0),
  };
  return Object.entries(commands).map(([id, run]) => vscode.commands.registerCommand(id, run));
}
