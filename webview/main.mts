/**
 * The Grimoire dashboard (runs in the webview). Everything it knows comes from the extension by
 * postMessage (protocol/dashboard-messages.ts: DashboardUpdate); everything it does is a DashboardRequest back.
 * Text from the gateway is set with textContent only; SVG is built element by element.
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { withRating, withRecorded } from '../protocol/activity-shared.js';
import type {
  ActivityFilterInfo,
  ActivityInfo,
  GatewayStatus,
  HintsPayload,
  LoadIssueInfo,
  PowerInfo,
  RecommendationStats,
  TokenReportInfo,
} from '../protocol/records.js';
import type { DashboardState, DashboardUpdate } from '../protocol/dashboard-messages.js';
import { ActivitySection } from './activity-section.js';
import { button, el } from './dom.js';
import { hintsSection } from './hints-section.js';
import { resultView } from './playground-section.js';
import { powersSection } from './powers-section.js';
import { qualitySection } from './quality-section.js';
import { tuneMessage } from './quality-model.js';
import { tokensSection } from './tokens-section.js';
import { healthText } from './view-model.js';
import { savedState, saveState, send } from './vscode-api.js';

interface TextFieldElement extends HTMLElement {
  value: string;
}

let status: GatewayStatus | undefined;
let powers: PowerInfo[] = [];
let issues: LoadIssueInfo[] = [];
let state: DashboardState = savedState() ?? { query: '' };
let restored = savedState() !== undefined;
let error = '';
let activity: ActivityInfo[] = [];
let stats: RecommendationStats | undefined;
let tuned = '';
let hints: HintsPayload | undefined;
let tokens: TokenReportInfo | undefined;

function keep(patch: Partial<DashboardState>): void {
  state = { ...state, ...patch };
  saveState(state);
}

function header(): HTMLElement {
  if (!status)
    return el(
      'header',
      { class: 'header' },
      el('h1', {}, 'Grimoire'),
      el('span', { class: 'muted' }, 'Waiting for the gateway...'),
    );
  const health = healthText(status);
  return el(
    'header',
    { class: 'header' },
    el('h1', {}, 'Grimoire'),
    el('span', { class: `health tone-${health.tone}`, 'data-testid': 'health' }, health.label),
    el('span', { class: 'muted' }, health.detail),
  );
}

const field = el('vscode-textfield', {
  placeholder: 'What do you want to do? e.g. read a file from my project',
  'data-testid': 'query',
}) as TextFieldElement;
field.value = state.query;
field.addEventListener('keydown', (event) => {
  if ((event as KeyboardEvent).key === 'Enter') resolve();
});

function resolve(): void {
  const query = field.value.trim();
  if (!query) return;
  keep({ query });
  send({ type: 'resolve', query });
}

function setFilter(filter: ActivityFilterInfo): void {
  const clean = Object.fromEntries(
    Object.entries(filter).filter(([, value]) => value !== undefined && value !== ''),
  ) as ActivityFilterInfo;
  keep({ activityFilter: clean });
  send({ type: 'activityFilter', filter: clean });
}

// The query field and the filters live outside what re-renders, so typing and focus survive every update.
const headerSlot = el('div');
const powersSlot = el('div');
const resultSlot = el('div', { 'aria-live': 'polite' });
const activitySection = new ActivitySection(setFilter);
const qualitySlot = el('div');
const hintsSlot = el('div');
const tokensSlot = el('div');
const app = document.getElementById('app')!;
app.removeAttribute('aria-busy');
app.replaceChildren(
  headerSlot,
  powersSlot,
  el(
    'section',
    { 'data-testid': 'playground' },
    el('h2', {}, 'Resolve playground'),
    el(
      'p',
      { class: 'muted small' },
      'Scores every power for a request the way resolve_intent does, without activating anything; ' +
        "open 'why' for each factor's contribution.",
    ),
    el('div', { class: 'query' }, field, button('Resolve', resolve, { testId: 'resolve' })),
    resultSlot,
  ),
  activitySection.element,
  hintsSlot,
  tokensSlot,
  qualitySlot,
);

function renderGateway(): void {
  headerSlot.replaceChildren(header());
  powersSlot.replaceChildren(powersSection(powers, issues));
}

function renderResult(): void {
  const parts: Node[] = [];
  if (error) parts.push(el('p', { class: 'error', role: 'alert' }, error));
  if (state.result) parts.push(...resultView(state.result, powers));
  resultSlot.replaceChildren(...parts);
}

const renderActivity = () =>
  activitySection.render(
    activity,
    state.activityFilter ?? {},
    powers.map((power) => power.name),
  );
const renderQuality = () => qualitySlot.replaceChildren(qualitySection(stats, tuned));
const renderHints = () => hintsSlot.replaceChildren(hintsSection(hints, state.hintsScope ?? 'active'));
const renderTokens = () => tokensSlot.replaceChildren(tokensSection(tokens));

window.addEventListener('message', (event: MessageEvent<DashboardUpdate>) => {
  const update = event.data;
  switch (update.type) {
    case 'gateway':
      status = update.status;
      powers = update.powers;
      issues = update.issues ?? [];
      renderGateway();
      renderResult();
      renderActivity();
      return;
    case 'restore':
      if (!restored) {
        state = update.state;
        field.value = state.query;
        saveState(state);
      }
      restored = true;
      renderResult();
      // The page asks for what depends on what it restored.
      send({ type: 'activityFilter', filter: state.activityFilter ?? {} });
      send({ type: 'hintsScope', scope: state.hintsScope ?? 'active' });
      return;
    case 'resolved':
      error = '';
      keep({ query: update.result.query, result: update.result });
      renderResult();
      return;
    case 'activity':
      activity = update.page.entries;
      renderActivity();
      return;
    case 'activityRecorded':
      activity = withRecorded(activity, update.entry, state.activityFilter ?? {});
      renderActivity();
      return;
    case 'activityRated':
      activity = withRating(activity, update.rated.id, update.rated.rating);
      renderActivity();
      return;
    case 'recommendations':
      stats = update.stats;
      renderQuality();
      return;
    case 'tuned':
      tuned = tuneMessage(update.result);
      renderQuality();
      return;
    case 'hints':
      hints = update.payload;
      if (hints.scope !== (state.hintsScope ?? 'active')) keep({ hintsScope: hints.scope });
      renderHints();
      return;
    case 'tokens':
      tokens = update.report;
      renderTokens();
      return;
    case 'failed':
      error = `${update.action} failed: ${update.message}`;
      renderResult();
      return;
    default:
      // A message of no declared type is ignored; a declared one does not compile until handled above.
      return void (update satisfies never);
  }
});

renderGateway();
renderResult();
renderActivity();
renderQuality();
renderHints();
renderTokens();
send({ type: 'ready' });
