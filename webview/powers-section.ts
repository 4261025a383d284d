/** The powers table: state, tools, source, activate / deactivate. */
import type { LoadIssueInfo, PowerInfo } from '../protocol/records.js';
import { button, el, section } from './dom.js';
import { powerRows } from './view-model.js';
import { send } from './vscode-api.js';

/** Every configuration problem the header counts, with its file, field and fix. */
function issuesList(issues: LoadIssueInfo[]): HTMLElement[] {
  if (issues.length === 0) return [];
  return [
    el('h3', {}, `Configuration problems (${issues.length})`),
    el(
      'ul',
      { 'data-testid': 'issues' },
      ...issues.map((issue) =>
        el(
          'li',
          { 'data-issue': issue.file },
          el('code', {}, `${issue.file}${issue.field ? ` (${issue.field})` : ''}`),
          el('div', {}, issue.message),
          el('div', { class: 'muted small' }, `Fix: ${issue.fix}`),
        ),
      ),
    ),
  ];
}

export function powersSection(powers: PowerInfo[], issues: LoadIssueInfo[] = []): HTMLElement {
  const rows = powerRows(powers);
  const body = rows.length
    ? el(
        'table',
        { class: 'grid', 'data-testid': 'powers' },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            el('th', {}, 'Power'),
            el('th', {}, 'State'),
            el('th', {}, 'Tools'),
            el('th', {}, 'Source'),
            el('th', {}, ''),
          ),
        ),
        el(
          'tbody',
          {},
          ...rows.map((row) =>
            el(
              'tr',
              { 'data-power': row.name },
              el('td', {}, el('strong', {}, row.name), el('div', { class: 'muted small' }, row.description)),
              el('td', { class: 'state' }, el('span', { class: `dot tone-${row.tone}` }), row.state),
              el(
                'td',
                { class: 'number' },
                String(row.tools),
                ...(row.toolsWithheld
                  ? [el('div', { class: 'muted small', 'data-withheld': row.name }, row.toolsWithheld)]
                  : []),
              ),
              el('td', {}, row.source),
              el(
                'td',
                { class: 'actions' },
                button(
                  row.action === 'activate' ? 'Activate' : 'Deactivate',
                  () => send({ type: row.action, name: row.name }),
                  { secondary: row.action === 'deactivate' },
                ),
              ),
            ),
          ),
        ),
      )
    : el(
        'p',
        { class: 'muted' },
        'No powers yet: add a spell file (Grimoire: New Spell File...) or turn on grimoire.demoPowers.',
      );
  return section('Powers', 'powers-section', body, ...issuesList(issues));
}
