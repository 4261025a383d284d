/**
 * The first start after installing, as a user has it: the .vsix installed in VS Code's extensions
 * folder (not loaded for development), VS Code's own Welcome page at startup, and Grimoire activated by
 * opening its view. Reads which walkthrough the Welcome editor then shows, then runs *Download Semantic
 * Model* from the palette and reads what it says.
 */
import type { Page } from 'playwright-core';

export interface WalkthroughAsUser {
  /** The header of the walkthrough on screen ('' when VS Code shows its list of walkthroughs). */
  shown: string;
  /** From the click on the Grimoire icon to the walkthrough's header on screen. */
  afterActivationMs: number;
  screenshot: string;
  /** The notification *Download Semantic Model* ends with ('' when none showed). */
  downloadMessage: string;
}

const TITLE = '.gettingStartedSlideDetails h2.category-title';

export async function walkthroughAsUser(page: Page, expected: string, screenshot: (name: string) => Promise<string>): Promise<WalkthroughAsUser> {
  const icon = page.locator('.activitybar .action-item a[aria-label^="Grimoire"]').first();
  await icon.waitFor({ timeout: 60_000 });
  await icon.click();
  const clicked = Date.now();
  const header = page.locator(TITLE, { hasText: expected });
  await header.waitFor({ state: 'visible', timeout: 30_000 }).catch(() => undefined);
  const afterActivationMs = Date.now() - clicked;
  const shown = (await page.locator(TITLE).evaluateAll((items) => items.filter((item) => (item as unknown as { offsetParent: unknown }).offsetParent !== null).map((item) => item.textContent ?? ''))).join(' | ');
  const shot = await screenshot('walkthrough-installed');
  return { shown, afterActivationMs, screenshot: shot, downloadMessage: await downloadFromPalette(page, screenshot) };
}

async function downloadFromPalette(page: Page, screenshot: (name: string) => Promise<string>): Promise<string> {
  await page.keyboard.press('F1');
  await page.keyboard.type('>Grimoire: Download Semantic Model');
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter');
  const toast = page.locator('.notifications-toasts .notification-list-item-message', { hasText: /cannot run here|could not be|semantic model is in/ }).last();
  const message = await toast
    .waitFor({ timeout: 30_000 })
    .then(async () => ((await toast.textContent()) ?? '').replace(/\s+/g, ' ').trim())
    .catch(() => '');
  await screenshot('download-model-universal');
  return message;
}
