/**
 * The Grimoire dashboard (runs in the webview). Everything it knows comes from the extension by
 * postMessage (protocol.ts: DashboardUpdate); everything it does is a DashboardRequest back.
 * Text from the gateway is set with textContent only.
 */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { DashboardRequest, DashboardState, DashboardUpdate, GatewayStatus, PowerInfo, ResolveResult } from '../server/rpc/protocol.js';
import { healthText, powerRows, scoreRows, tierSummary } from './view-model.js';

interface VsCodeApi {
  postMessage(message: DashboardRequest): void;
  getState(): DashboardState | undefined;
  setState(state: DashboardState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

interface TextFieldElement extends HTMLElement {
  value: string;
}

const vscode = acquireVsCodeApi();

let status: GatewayStatus | undefined;
let powers: PowerInfo[] = [];
let state: DashboardState = vscode.getState() ?? { query: '' };
let restored = vscode.getState() !== undefined;
let error = '';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Record<string, string>, ...children: Array<Node | string>): HTMLElementTagNameMap[K];
function el(tag: string, attributes?: Record<string, string>, ...children: Array<Node | string>): HTMLElement;
function el(tag: string, attributes: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

function button(label: string, onClick: () => void, secondary = false, testId?: string): HTMLElement {
  const node = el('vscode-button', testId ? { 'data-testid': testId } : {}, label);
  if (secondary) node.setAttribute('secondary', '');
  node.addEventListener('click', onClick);
  return node;
}

function send(message: DashboardRequest): void {
  vscode.postMessage(message);
}

function header(): HTMLElement {
  if (!status) return el('header', { class: 'header' }, el('h1', {}, 'Grimoire'), el('span', { class: 'muted' }, 'Waiting for the gateway...'));
  const health = healthText(status);
  return el(
    'header',
    { class: 'header' },
    el('h1', {}, 'Grimoire'),
    el('span', { class: `health tone-${health.tone}`, 'data-testid': 'health' }, health.label),
    el('span', { class: 'muted' }, health.detail),
  );
}

function powersSection(): HTMLElement {
  const rows = powerRows(powers);
  const body = rows.length
    ? el(
        'table',
        { class: 'grid', 'data-testid': 'powers' },
        el('thead', {}, el('tr', {}, el('th', {}, 'Power'), el('th', {}, 'State'), el('th', {}, 'Tools'), el('th', {}, 'Source'), el('th', {}, ''))),
        el(
          'tbody',
          {},
          ...rows.map((row) =>
            el(
              'tr',
              { 'data-power': row.name },
              el('td', {}, el('strong', {}, row.name), el('div', { class: 'muted small' }, row.description)),
              el('td', { class: 'state' }, el('span', { class: `dot tone-${row.tone}` }), row.state),
              el('td', { class: 'number' }, String(row.tools)),
              el('td', {}, row.source),
              el('td', { class: 'actions' }, button(row.action === 'activate' ? 'Activate' : 'Deactivate', () => send({ type: row.action, name: row.name }), row.action === 'deactivate')),
            ),
          ),
        ),
      )
    : el('p', { class: 'muted' }, 'No powers yet: add a spell file (Grimoire: New Spell File...) or turn on grimoire.demoPowers.');
  return el('section', {}, el('h2', {}, 'Powers'), body);
}

const field = el('vscode-textfield', { placeholder: 'What do you want to do? e.g. read a file from my project', 'data-testid': 'query' }) as TextFieldElement;
field.value = state.query;
field.addEventListener('keydown', (event) => {
  if ((event as KeyboardEvent).key === 'Enter') resolve();
});

function resolve(): void {
  const query = field.value.trim();
  if (!query) return;
  state = { ...state, query };
  vscode.setState(state);
  send({ type: 'resolve', query });
}

function resultView(result: ResolveResult): Node[] {
  const summary = tierSummary(result);
  const rows = scoreRows(result, powers);
  return [
    el('div', { class: `tier tier-${result.tier}`, 'data-testid': 'tier' }, el('vscode-badge', {}, summary.label), el('span', {}, ` "${result.query}": ${summary.text}`)),
    el(
      'table',
      { class: 'grid', 'data-testid': 'scores' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Power'), el('th', {}, 'Confidence'), el('th', {}, 'Tier'), el('th', {}, 'Matched'), el('th', {}, ''))),
      el(
        'tbody',
        {},
        ...rows.map((row) => {
          const fill = el('div', { class: `fill band-${row.band}` });
          fill.style.width = `${row.percent}%`;
          return el(
            'tr',
            { 'data-score': row.name, class: row.offered ? 'offered' : '' },
            el('td', {}, el('strong', {}, row.name)),
            el('td', { class: 'confidence' }, el('div', { class: 'bar' }, fill), el('span', { class: 'number' }, row.confidenceText)),
            el('td', {}, row.bandText),
            el('td', { class: 'muted small' }, row.matched),
            el('td', { class: 'actions' }, row.active ? el('span', { class: 'muted' }, 'active') : button('Activate', () => send({ type: 'activate', name: row.name }), !row.offered)),
          );
        }),
      ),
    ),
  ];
}

function later(title: string, text: string): HTMLElement {
  return el('section', { class: 'later' }, el('h2', {}, title), el('p', { class: 'muted' }, text));
}

// The query field lives outside what re-renders, so typing survives every update from the gateway.
const headerSlot = el('div');
const powersSlot = el('div');
const resultSlot = el('div', { 'aria-live': 'polite' });
const app = document.getElementById('app')!;
app.removeAttribute('aria-busy');
app.replaceChildren(
  headerSlot,
  powersSlot,
  el(
    'section',
    {},
    el('h2', {}, 'Resolve playground'),
    el('p', { class: 'muted small' }, 'Scores every power for a request the way resolve_intent does, without activating anything.'),
    el('div', { class: 'query' }, field, button('Resolve', resolve, false, 'resolve')),
    resultSlot,
  ),
  el(
    'div',
    { class: 'columns' },
    later('Activity', 'Tool calls through the gateway will be listed here.'),
    later('Hints', 'Prerequisites and next steps learned from calls will appear here.'),
    later('Token savings', 'How many tool-schema tokens the gateway kept out of each request will be shown here.'),
  ),
);

function render(): void {
  headerSlot.replaceChildren(header());
  powersSlot.replaceChildren(powersSection());
  const parts: Node[] = [];
  if (error) parts.push(el('p', { class: 'error', role: 'alert' }, error));
  if (state.result) parts.push(...resultView(state.result));
  resultSlot.replaceChildren(...parts);
}

window.addEventListener('message', (event: MessageEvent<DashboardUpdate>) => {
  const update = event.data;
  switch (update.type) {
    case 'gateway':
      status = update.status;
      powers = update.powers;
      break;
    case 'restore':
      if (!restored) {
        state = update.state;
        field.value = state.query;
        vscode.setState(state);
      }
      restored = true;
      break;
    case 'resolved':
      error = '';
      state = { query: update.result.query, result: update.result };
      vscode.setState(state);
      break;
    case 'failed':
      error = `${update.action} failed: ${update.message}`;
      break;
  }
  render();
});

render();
send({ type: 'ready' });
