/** The first activation after installing: the walkthrough opens once, remembered in the global state. No `vscode` import. */

export const WALKTHROUGH_SHOWN_KEY = 'grimoire.walkthroughShown';
export const WALKTHROUGH_ID = 'grimoire.firstSteps';

/**
 * How long after activation the walkthrough is asked for. VS Code registers an extension's walkthrough
 * only after waiting up to 5 s for an experiment to override its `when` (gettingStartedService's
 * Promise.race with a 5000 ms timer, which runs out offline); `workbench.action.openWalkthrough` for an id
 * not registered yet shows VS Code's own Welcome page instead. An extension activated at startup asks
 * inside that window; asked later, the walkthrough opens (seen in code-server 4.103 with the .vsix
 * installed and with it loaded for development).
 */
export const WALKTHROUGH_DELAY_MS = 6000;

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
