/** The hint network as a graph (dagre layout, SVG), which powers it covers, and the hints fired lately. */
import type { HintEventInfo, HintsPayload } from '../protocol/records.js';
import { button, el, section } from './dom.js';
import { formatTime } from './format.js';
import { hintGraph } from './hint-graph.js';
import { layoutHintGraph } from './graph-layout.js';
import { send } from './vscode-api.js';

const short = (id: string) => id.slice(id.indexOf(':') + 1);

let context: CanvasRenderingContext2D | null | undefined;

/** Text width in the graph's node font (12px, the page's family), measured on a canvas. */
function textWidth(text: string): number {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return text.length * 7;
  context.font = `600 12px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  return context.measureText(text).width;
}

function what(event: HintEventInfo): string {
  switch (event.kind) {
    case 'prerequisite':
      return `run ${event.suggested.map(short).join(', ')} first`;
    case 'next_action':
      return `next: ${event.suggested.map(short).join(', ')}`;
    case 'error_hint':
      return `error hint for "${event.hint}"`;
  }
}

function recentTable(recent: HintEventInfo[]): HTMLElement {
  if (recent.length === 0) return el('p', { class: 'muted small' }, 'No hint was given yet.');
  return el(
    'table',
    { class: 'grid', 'data-testid': 'recent-hints' },
    el(
      'thead',
      {},
      el('tr', {}, ...['Time', 'Tool', 'Hint', 'Source', 'What the agent did'].map((h) => el('th', {}, h))),
    ),
    el(
      'tbody',
      {},
      ...recent.map((event) =>
        el(
          'tr',
          { 'data-hint-event': `${event.power}:${event.tool}` },
          el('td', { class: 'muted small nowrap' }, formatTime(event.at)),
          el('td', {}, el('strong', {}, event.tool), el('span', { class: 'muted small' }, ` ${event.power}`)),
          el('td', {}, what(event)),
          el('td', {}, event.source),
          el(
            'td',
            { class: event.outcome === 'followed' ? 'tone-ok' : event.outcome ? '' : 'muted' },
            event.outcome ?? 'pending',
          ),
        ),
      ),
    ),
  );
}

function legend(): HTMLElement {
  const item = (className: string, text: string) => el('li', {}, el('span', { class: `line ${className}` }), text);
  return el(
    'ul',
    { class: 'legend small' },
    item('kind-prerequisite source-declared', 'prerequisite (run before)'),
    item('kind-next_action source-declared', 'next action'),
    item('kind-next_action source-learned', 'learned from calls (dashed)'),
    el('li', { class: 'muted' }, 'thicker: used more · label: uses · follow rate'),
  );
}

export function hintsSection(payload: HintsPayload | undefined, scope: 'active' | 'all'): HTMLElement {
  const toggle = el(
    'div',
    { class: 'toggle', role: 'group', 'aria-label': 'Powers shown' },
    button('Active powers', () => send({ type: 'hintsScope', scope: 'active' }), {
      secondary: scope !== 'active',
      testId: 'scope-active',
    }),
    button('All powers', () => send({ type: 'hintsScope', scope: 'all' }), {
      secondary: scope !== 'all',
      testId: 'scope-all',
    }),
  );
  if (!payload)
    return section('Hint network', 'hints-section', toggle, el('p', { class: 'muted' }, 'Waiting for the gateway...'));
  const layout = layoutHintGraph(payload, { textWidth });
  const learned = payload.edges.filter((edge) => edge.source === 'learned').length;
  const summary =
    payload.powers.length === 0
      ? 'No power is active: activate one, or show all powers.'
      : `${payload.powers.join(', ')}: ${layout.nodes.length} tools linked by ${payload.edges.length} hints ` +
        `(${learned} learned)` +
        `${layout.hiddenTools ? `; ${layout.hiddenTools} tools without hints are not drawn` : ''}.`;
  const graph =
    layout.edges.length > 0
      ? el('div', { class: 'graph-box' }, hintGraph(layout))
      : el(
          'p',
          { class: 'muted', 'data-testid': 'graph-empty' },
          'No hints among these powers yet: spell files declare them (hints: ' +
            'prerequisites, next_actions), and repeated sequences of calls are learned.',
        );
  return section(
    'Hint network',
    'hints-section',
    el(
      'div',
      { class: 'section-bar' },
      el('p', { class: 'muted small', 'data-testid': 'hints-summary' }, summary),
      toggle,
    ),
    graph,
    legend(),
    el('h3', {}, 'Hints given lately'),
    recentTable(payload.recent),
  );
}
