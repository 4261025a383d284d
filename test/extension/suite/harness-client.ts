/**
 * Asks the Playwright harness that drives the browser (test/extension/harness/run.ts) for what the
 * extension host cannot do itself: screenshots, reading the rendered workbench, using the webview.
 * Requests go out as log lines; answers come back as files in $GRIMOIRE_HARNESS_DIR.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { waitFor } from './runner.js';

export const HARNESS_PREFIX = '[grimoire-harness]';

/** The semantic model the harness's settings name; the suite serves the tiny fixture model under this id from 127.0.0.1. */
export const TEST_MODEL_ID = 'grimoire-test/tiny-embedder';

export type HarnessRequest =
  | { action: 'snapshot'; name: string }
  | { action: 'dashboard'; name: string; query?: string; activate?: string }
  | { action: 'grammar'; file: string }
  /**
   * Reads a sidebar view (opening it, every row expanded when asked), optionally clicks an inline
   * action on the first row matching `row`, and takes a picture with the pointer on the first row
   * matching `hover` (its inline actions shown), else on the view's title.
   */
  | {
      action: 'pane';
      name: string;
      pane: 'Activity' | 'Hints';
      expandAll?: boolean;
      click?: { row: string; label: string };
      hover?: string;
    }
  /** Scrolls the dashboard to its activity, hint graph and token sections and reads them. */
  | { action: 'dashboardSections'; name: string }
  /** Reads the Powers view's welcome text at once (no waiting, no clicks) and takes a picture. */
  | { action: 'welcome'; name: string }
  /** Waits for an element of the workbench and reads its text (and any image sources in it), then takes a picture. */
  | {
      action: 'text';
      name: string;
      selector: string;
      /** Wait for this text somewhere in the page or its webviews. */ waitFor?: string;
    }
  /** Clicks into the active editor and types, as a user would, then takes a picture. */
  | { action: 'type'; name: string; text: string }
  /** Opens the Problems panel and reads its rows. */
  | { action: 'problems'; name: string };

export interface WelcomeAnswer {
  screenshot: string;
  /** '' when the view shows rows instead. */
  welcome: string;
}

export interface TextAnswer {
  screenshot: string;
  text: string;
  images: string[];
}

export interface ProblemsAnswer {
  screenshot: string;
  /** Each row's text as rendered (message, source, [Ln, Col]). */
  rows: string[];
}

export interface SnapshotAnswer {
  screenshot: string;
  /** Text of every row of the Powers tree. */
  powersRows: string[];
  statusBar: string[];
}

export interface DashboardAnswer {
  screenshot: string;
  query: string;
  tier: string;
  scores: Array<{ name: string; text: string }>;
  powers: Array<{ name: string; text: string }>;
}

export interface PaneRow {
  label: string;
  description: string;
  level: number;
  /** Icon class (codicon-...), when it has one. */
  icon: string;
}

export interface PaneAnswer {
  screenshot: string;
  /** The view's title area (its description shows the Activity filter). */
  header: string;
  rows: PaneRow[];
  /** The view's welcome text, when it shows instead of rows. */
  welcome: string;
}

export interface DashboardSectionsAnswer {
  screenshots: string[];
  activityRows: string[];
  graphNodes: string[];
  graphEdges: number;
  chartBars: number;
  chartLine: string;
  toolsListSavings: string;
}

/** The file tokenized by VS Code's TextMate engine with the extension's grammar: the scopes on each line. */
export interface GrammarAnswer {
  lines: Array<{ text: string; scopes: string[] }>;
}

let next = 0;

export function harnessAvailable(): boolean {
  return Boolean(process.env.GRIMOIRE_HARNESS_DIR);
}

export async function askHarness<T>(request: HarnessRequest, timeoutMs = 30_000): Promise<T> {
  const dir = process.env.GRIMOIRE_HARNESS_DIR;
  if (!dir) throw new Error('no Playwright harness: run these tests with `npm run test:extension`');
  const id = `${process.pid}-${++next}`;
  console.log(`${HARNESS_PREFIX} ${JSON.stringify({ id, ...request })}`);
  const file = path.join(dir, `${id}.json`);
  const text = await waitFor(
    () => fs.existsSync(file) && fs.readFileSync(file, 'utf8'),
    timeoutMs,
    `the harness to answer ${request.action}`,
  );
  const answer = JSON.parse(text) as T & { error?: string };
  if (answer.error) throw new Error(`harness: ${answer.error}`);
  return answer;
}
