/** The first activation after installing: the walkthrough opens once, remembered in the global state. No `vscode` import. */

export const WALKTHROUGH_SHOWN_KEY = 'grimoire.walkthroughShown';
export const WALKTHROUGH_ID = 'grimoire.firstSteps';

export interface FirstRunState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** Opens the walkthrough unless it was opened before (in any window); true when it opened it now. */
export async function openWalkthroughOnce(state: FirstRunState, open: () => Thenable<unknown>): Promise<boolean> {
  if (state.get<boolean>(WALKTHROUGH_SHOWN_KEY)) return false;
  // Remembered first: two windows opening at once, or a failure to open, never bring it back at every start.
  await state.update(WALKTHROUGH_SHOWN_KEY, true);
  await open();
  return true;
}
