/** What the harness reads from the rendered workbench for the Activity and Hints views and the dashboard's insight sections. */
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import type { DashboardSectionsAnswer, PaneAnswer, PaneRow } from '../suite/harness-client.js';

function paneOf(page: Page, title: string): Locator {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: new RegExp(`^\\s*${title}`, 'i') }) });
}

async function rowsOf(pane: Locator): Promise<PaneRow[]> {
  return pane.locator('.monaco-list-row').evaluateAll((rows) =>
    rows.map((row) => ({
      label: (row.querySelector('.label-name')?.textContent ?? '').trim(),
      description: (row.querySelector('.label-description')?.textContent ?? '').trim(),
      level: Number(row.getAttribute('aria-level') ?? '1'),
      icon:
        [...(row.querySelector('.custom-view-tree-node-item-icon')?.classList ?? [])].find((name) =>
          name.startsWith('codicon-'),
        ) ?? '',
    })),
  );
}

/** The Powers view's welcome text, read at once: the test asks while the gateway is still starting. */
export async function readWelcome(
  page: Page,
  name: string,
  screenshot: (name: string) => Promise<string>,
): Promise<{ screenshot: string; welcome: string }> {
  const welcome = paneOf(page, 'Powers').locator('.welcome-view-content');
  const text = (await welcome.count()) ? ((await welcome.first().textContent()) ?? '').replace(/\s+/g, ' ').trim() : '';
  return { welcome: text, screenshot: await screenshot(name) };
}

/** The text and image sources of every element matching `selector`, in the page and its webviews, once `waitFor` shows. */
export async function readText(
  page: Page,
  name: string,
  selector: string,
  waitFor: string | undefined,
  screenshot: (name: string) => Promise<string>,
): Promise<{ screenshot: string; text: string; images: string[] }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    let text = '';
    const images: string[] = [];
    for (const frame of page.frames()) {
      for (const element of await frame.$$(selector).catch(() => [])) {
        text += ' ' + ((await element.textContent().catch(() => '')) ?? '').replace(/\s+/g, ' ').trim();
        images.push(
          ...(await element
            .$$eval('img', (items) => items.map((item) => item.getAttribute('src') ?? ''))
            .catch(() => [])),
        );
      }
    }
    if (text.trim() && (!waitFor || text.includes(waitFor)))
      return { text: text.trim(), images, screenshot: await screenshot(name) };
    if (Date.now() > deadline) {
      await screenshot(`${name}-failed`).catch(() => undefined);
      throw new Error(`${waitFor ? `"${waitFor}"` : selector} not shown; the page said: ${text.trim().slice(0, 400)}`);
    }
    await page.waitForTimeout(250);
  }
}

const CLICK_TIMEOUT_MS = 10_000;

/** The element on top at `target`'s middle (where a click lands), for a message about a click that did not land. */
async function whatIsAt(target: Locator): Promise<string> {
  const box = await target.boundingBox({ timeout: 2000 }).catch(() => null);
  if (!box) return 'none: the editor is not on screen';
  return target
    .evaluate(
      (self, { x, y }) => {
        const view = self.ownerDocument.defaultView;
        if (view && (x < 0 || y < 0 || x > view.innerWidth || y > view.innerHeight))
          return `none: the point (${Math.round(x)}, ${Math.round(y)}) is outside the window`;
        const top = self.ownerDocument.elementFromPoint(x, y);
        return top ? `${top.tagName.toLowerCase()}.${[...top.classList].join('.')}` : 'none';
      },
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      { timeout: 2000 },
    )
    .catch((error: Error) => `unknown (${error.message.split('\n')[0]})`);
}

/** Types into the active editor with the keyboard (an API edit would bypass a read-only editor). */
export async function typeInEditor(
  page: Page,
  name: string,
  text: string,
  screenshot: (name: string) => Promise<string>,
): Promise<{ screenshot: string }> {
  // The editor's middle, not its first line's: in a scrolled editor (CI once showed it at its end) the first line is above the window.
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  const click = () => editor.click({ timeout: CLICK_TIMEOUT_MS });
  try {
    await click();
  } catch (first) {
    // Something (a hover, a toast, a quick pick) can hold the click: say what, dismiss it with Escape and click once more.
    const blocker = await whatIsAt(editor);
    await screenshot(`${name}-failed`).catch(() => undefined);
    await page.keyboard.press('Escape');
    try {
      await click();
    } catch {
      throw new Error(
        `the editor could not be clicked in ${CLICK_TIMEOUT_MS / 1000} s, ` +
          `twice (the element at the click point: ${blocker}): ${(first as Error).message.split('\n')[0]}`,
      );
    }
  }
  await page.keyboard.type(text);
  await page.waitForTimeout(300);
  return { screenshot: await screenshot(name) };
}

/** The Problems panel's rows (it is opened by the caller's command). */
export async function readProblems(
  page: Page,
  name: string,
  screenshot: (name: string) => Promise<string>,
): Promise<{ screenshot: string; rows: string[] }> {
  const rows = page.locator('.markers-panel .monaco-list-row');
  await rows.first().waitFor({ timeout: 15_000 });
  await page.waitForTimeout(300);
  const text = await rows.evaluateAll((items) =>
    items.map((item) => (item.textContent ?? '').replace(/\s+/g, ' ').trim()),
  );
  return { rows: text, screenshot: await screenshot(name) };
}

type PaneRequest = {
  name: string;
  pane: string;
  expandAll?: boolean;
  click?: { row: string; label: string };
  hover?: string;
};

export async function readPane(
  page: Page,
  request: PaneRequest,
  screenshot: (name: string) => Promise<string>,
): Promise<PaneAnswer> {
  try {
    return await read(page, request, screenshot);
  } catch (error) {
    await screenshot(`${request.name}-failed`).catch(() => undefined);
    throw error;
  }
}

/** Drags the side bar's edge so that rows show their descriptions in the pictures. */
async function widenSideBar(page: Page, width = 560): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= width - 20) return;
  const edge = box.x + box.width;
  const y = box.y + box.height / 2;
  await page.mouse.move(edge + 1, y);
  await page.mouse.down();
  await page.mouse.move(edge + 1 + (width - box.width), y, { steps: 8 });
  await page.mouse.up();
  await page.waitForTimeout(300);
}

async function read(
  page: Page,
  request: PaneRequest,
  screenshot: (name: string) => Promise<string>,
): Promise<PaneAnswer> {
  await widenSideBar(page);
  const pane = paneOf(page, request.pane);
  const header = pane.locator('.pane-header').first();
  await header.waitFor({ timeout: 10_000 });
  // The view gets the whole side bar: the tree renders only the rows in sight.
  const others = page
    .locator('.part.sidebar .pane-header', { hasNotText: new RegExp(`^\\s*${request.pane}`, 'i') })
    .and(page.locator('[aria-expanded="true"]'));
  for (let round = 0; round < 5 && (await others.count()) > 0; round += 1)
    await others.first().click({ timeout: 5000, position: { x: 12, y: 10 } });
  if ((await header.getAttribute('aria-expanded')) === 'false')
    await header.click({ timeout: 5000, position: { x: 12, y: 10 } });
  await page.waitForTimeout(400);
  if (request.expandAll) {
    for (let round = 0; round < 20; round += 1) {
      const collapsed = pane.locator('.monaco-list-row[aria-expanded="false"]');
      if ((await collapsed.count()) === 0) break;
      await collapsed.first().locator('.monaco-tl-twistie').click({ timeout: 5000 });
      await page.waitForTimeout(150);
    }
  }
  if (request.click) {
    const row = pane.locator('.monaco-list-row', { hasText: request.click.row }).first();
    await row.hover();
    await row.locator(`.action-label[aria-label^="${request.click.label}"]`).click({ timeout: 10_000 });
    await page.waitForTimeout(600);
  }
  // After a click the pointer stays on the row, so the picture shows its inline actions; else it
  // rests on the row asked for, or on the view's title, which shows the view's own actions (filter, dashboard).
  if (request.hover) await pane.locator('.monaco-list-row', { hasText: request.hover }).first().hover();
  else if (!request.click) await header.hover({ position: { x: 40, y: 10 } });
  await page.waitForTimeout(200);
  return {
    screenshot: await screenshot(request.name),
    header: ((await header.textContent()) ?? '').replace(/\s+/g, ' ').trim(),
    rows: await rowsOf(pane),
    welcome: (await pane.locator('.welcome-view-content').count())
      ? ((await pane.locator('.welcome-view-content').first().textContent()) ?? '').replace(/\s+/g, ' ').trim()
      : '',
  };
}

export async function dashboardSections(
  page: Page,
  frame: Frame,
  name: string,
  output: string,
): Promise<DashboardSectionsAnswer> {
  await frame.locator('[data-testid="hint-graph"] [data-node]').first().waitFor({ timeout: 20_000 });
  await frame.locator('[data-testid="token-chart"] .saved-bar').first().waitFor({ timeout: 20_000 });
  const screenshots: string[] = [];
  for (const section of ['activity-section', 'hints-section', 'tokens-section']) {
    // Sections are redrawn as updates arrive: scroll the one there now.
    await frame.locator(`[data-testid="${section}"]`).evaluate((node) => node.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
    const file = path.join(output, `${name}-${section.replace('-section', '')}.png`);
    await page.screenshot({ path: file });
    screenshots.push(file);
  }
  return {
    screenshots,
    activityRows: await frame
      .locator('[data-activity]')
      .evaluateAll((rows) => rows.map((row) => (row.textContent ?? '').replace(/\s+/g, ' ').trim())),
    graphNodes: await frame
      .locator('[data-testid="hint-graph"] [data-node]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node') ?? '')),
    graphEdges: await frame.locator('[data-testid="hint-graph"] [data-edge]').count(),
    chartBars: await frame.locator('[data-testid="token-chart"] .saved-bar').count(),
    chartLine: (await frame.locator('[data-testid="total-line"]').getAttribute('d')) ?? '',
    toolsListSavings: ((await frame.locator('[data-testid="tools-list-savings"]').textContent()) ?? '')
      .replace(/\s+/g, ' ')
      .trim(),
  };
}
