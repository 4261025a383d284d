/**
 * The first start after installing, as a user has it: the .vsix installed in VS Code's extensions
 * folder (not loaded for development), VS Code's own Welcome page at startup, a workspace with its own
 * `.vscode/mcp.json`, and no agent call at all. Nothing is clicked until the walkthrough and the
 * status item have shown (the extension activates at startup); then the Grimoire view is opened and
 * the walkthrough's steps must still be unticked; last, the "lexical only" status item is clicked and
 * *Download Semantic Model* asks where from, and says what it can do.
 */
import type { Page } from 'playwright-core';

export interface WalkthroughAsUser {
  /** The header of the walkthrough on screen ('' when VS Code shows its list of walkthroughs). */
  shown: string;
  /** From the page's load to the walkthrough's header on screen, with no click. */
  afterLoadMs: number;
  /** From the page's load to Grimoire's status item, with no click. */
  statusItemMs: number;
  /** The steps ticked after the Grimoire view was opened (none was done). */
  tickedSteps: string[];
  screenshot: string;
  /** The status bar's "lexical only" item ('' when none showed). */
  lexicalItem: string;
  /** The choices *Download Semantic Model* offered. */
  sources: string[];
  /** The notification *Download Semantic Model* ends with ('' when none showed). */
  downloadMessage: string;
}

const TITLE = '.gettingStartedSlideDetails h2.category-title';

export async function walkthroughAsUser(
  page: Page,
  expected: string,
  loadedAt: number,
  screenshot: (name: string) => Promise<string>,
): Promise<WalkthroughAsUser> {
  const statusItem = page.locator('.statusbar-item', { hasText: /Grimoire/ }).first();
  const header = page.locator(TITLE, { hasText: expected });
  const statusItemMs = await statusItem.waitFor({ timeout: 60_000 }).then(
    () => Date.now() - loadedAt,
    () => -1,
  );
  await header.waitFor({ state: 'visible', timeout: 60_000 }).catch(() => undefined);
  const afterLoadMs = Date.now() - loadedAt;
  const shown = (
    await page
      .locator(TITLE)
      .evaluateAll((items) =>
        items
          .filter((item) => (item as unknown as { offsetParent: unknown }).offsetParent !== null)
          .map((item) => item.textContent ?? ''),
      )
  ).join(' | ');
  const shot = await screenshot('walkthrough-installed');
  // Opening the view is not one of the steps: nothing may be ticked by it.
  const icon = page.locator('.activitybar .action-item a[aria-label^="Grimoire"]').first();
  await icon.click();
  await page.waitForTimeout(1500);
  const tickedSteps = await page
    .locator('button.getting-started-step[aria-checked="true"]')
    .evaluateAll((steps) => steps.map((step) => step.getAttribute('data-step-id') ?? ''));
  await screenshot('walkthrough-after-view-opened');
  const lexical = page.locator('.statusbar-item', { hasText: /lexical only/ }).first();
  const lexicalItem = await lexical.waitFor({ timeout: 30_000 }).then(
    async () => ((await lexical.getAttribute('aria-label')) ?? (await lexical.textContent()) ?? '').trim(),
    () => '',
  );
  const { sources, message } = lexicalItem
    ? await downloadFromStatusItem(page, lexical, screenshot)
    : { sources: [], message: '' };
  return {
    shown,
    afterLoadMs,
    statusItemMs,
    tickedSteps,
    screenshot: shot,
    lexicalItem,
    sources,
    downloadMessage: message,
  };
}

/** Clicks "lexical only", reads the sources offered, takes Hugging Face, and reads what the command says. */
async function downloadFromStatusItem(
  page: Page,
  item: ReturnType<Page['locator']>,
  screenshot: (name: string) => Promise<string>,
): Promise<{ sources: string[]; message: string }> {
  await item.click();
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await rows
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(() => undefined);
  const sources = await rows.evaluateAll((items) =>
    items.map((row) => (row.querySelector('.label-name')?.textContent ?? row.textContent ?? '').trim()),
  );
  await screenshot('download-model-sources');
  await page.keyboard.press('Enter');
  const toast = page
    .locator('.notifications-toasts .notification-list-item-message', {
      hasText: /cannot run here|could not be|semantic model is in/,
    })
    .last();
  const message = await toast
    .waitFor({ timeout: 30_000 })
    .then(async () => ((await toast.textContent()) ?? '').replace(/\s+/g, ' ').trim())
    .catch(() => '');
  await screenshot('download-model-universal');
  return { sources, message };
}
