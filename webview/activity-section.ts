/** The activity table: the last calls, live, with filters (intent type, status, power) and thumbs up / down. */
import { ACTIVITY_STATUSES, INTENT_TYPES, type ActivityFilterInfo, type ActivityInfo } from '../protocol/records.js';
import { filterText, isFiltered, toggledRating } from '../protocol/activity-shared.js';
import { activityRows, powerOptions, type ActivityRow } from './activity-model.js';
import { el, section, select, svg } from './dom.js';
import { send } from './vscode-api.js';

/** A thumb drawn as SVG (no emoji font needed): a cuff and a hand, turned over for thumbs down. */
function thumbIcon(direction: 1 | -1): SVGElement {
  return svg(
    'svg',
    { viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': 'true', class: 'thumb-icon' },
    svg(
      'g',
      direction > 0 ? {} : { transform: 'rotate(180 8 8)' },
      svg('rect', { x: 1.5, y: 7, width: 3, height: 7.5, rx: 0.6 }),
      svg('path', {
        d: 'M4.5 7.5 L7.4 2.2 Q8.1 1.1 9 1.9 Q9.7 2.6 9.3 4.1 L8.7 6.5 H12.9 Q14.6 6.6 14.3 8.3 L13.3 13.2 Q13 14.5 11.6 14.5 H4.5 Z',
      }),
    ),
  );
}

function thumb(row: ActivityRow, direction: 1 | -1): HTMLElement {
  const on = row.rating === direction;
  const label = direction > 0 ? 'Thumbs up' : 'Thumbs down';
  const node = el(
    'button',
    {
      class: `thumb${on ? ' on' : ''}`,
      'aria-pressed': String(on),
      'aria-label': on ? `Remove ${label.toLowerCase()}` : label,
      title: on ? `Remove ${label.toLowerCase()}` : `${label}: the ranking learns from it`,
      'data-rate': direction > 0 ? 'up' : 'down',
    },
    thumbIcon(direction),
  );
  node.addEventListener('click', () =>
    send({ type: 'rate', id: row.id, rating: toggledRating(row.rating, direction) }),
  );
  return node;
}

function table(entries: ActivityInfo[], filter: ActivityFilterInfo): HTMLElement {
  if (entries.length === 0) {
    return el(
      'p',
      { class: 'muted', 'data-testid': 'activity-empty' },
      isFiltered(filter)
        ? `No calls match ${filterText(filter)}.`
        : 'No tool calls yet: each call an agent makes through Grimoire shows up here as it happens.',
    );
  }
  return el(
    'table',
    { class: 'grid', 'data-testid': 'activity' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['Time', 'Tool', 'Power', 'Intent', 'Status', 'Decision', 'Latency', 'Rating'].map((h) => el('th', {}, h)),
      ),
    ),
    el(
      'tbody',
      {},
      ...activityRows(entries).map((row) =>
        el(
          'tr',
          { 'data-activity': row.id, title: row.detail, class: row.audit ? 'audit' : '' },
          el('td', { class: 'muted small nowrap' }, row.time),
          el(
            'td',
            {},
            el('strong', {}, row.tool),
            ...(row.audit
              ? [
                  el(
                    'span',
                    { class: 'audit-badge', title: 'The spell flags this tool for review (audit: true)' },
                    'audit',
                  ),
                ]
              : []),
          ),
          el('td', {}, row.power),
          el('td', {}, row.intent),
          el('td', { class: 'state' }, el('span', { class: `dot tone-${row.tone}` }), row.statusText),
          el(
            'td',
            { class: row.decision === 'allowed' ? 'muted' : `tone-${row.decision === 'warned' ? 'warn' : 'error'}` },
            row.decision,
          ),
          el('td', { class: 'number' }, row.latency),
          el('td', { class: 'nowrap' }, thumb(row, 1), thumb(row, -1)),
        ),
      ),
    ),
  );
}

export class ActivitySection {
  readonly element: HTMLElement;
  private readonly filters = el('div', { class: 'filters' });
  private readonly body = el('div', { 'aria-live': 'polite' });

  constructor(private readonly onFilter: (filter: ActivityFilterInfo) => void) {
    this.element = section(
      'Activity',
      'activity-section',
      el(
        'p',
        { class: 'muted small' },
        'Every call through the gateway, newest first, as it happens. Rate a call: the ranking learns from it.',
      ),
      this.filters,
      this.body,
    );
  }

  render(entries: ActivityInfo[], filter: ActivityFilterInfo, knownPowers: string[]): void {
    const set = (patch: ActivityFilterInfo) => this.onFilter({ ...filter, ...patch });
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.testid;
    this.filters.replaceChildren(
      select(
        'Intent type',
        [...INTENT_TYPES],
        filter.intentType,
        (value) => set({ intentType: value as ActivityFilterInfo['intentType'] }),
        'filter-intent',
      ),
      select(
        'Status',
        [...ACTIVITY_STATUSES],
        filter.status,
        (value) => set({ status: value as ActivityFilterInfo['status'] }),
        'filter-status',
      ),
      select(
        'Power',
        powerOptions(knownPowers, entries, filter.power),
        filter.power,
        (value) => set({ power: value }),
        'filter-power',
      ),
    );
    if (focused) (this.filters.querySelector(`[data-testid="${focused}"]`) as HTMLElement | null)?.focus();
    this.body.replaceChildren(table(entries, filter));
  }
}
