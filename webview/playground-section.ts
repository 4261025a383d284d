/** The resolve playground's result: every power's confidence, tier, flags and "why this power". */
import type { PowerInfo, PowerScoreInfo, ResolveResult } from '../protocol/records.js';
import { bar, button, el } from './dom.js';
import { formatNumber } from './format.js';
import { contributionSegments, historyFacts, orderSentence, relevanceFacts } from './quality-model.js';
import { scoreRows, tierSummary } from './view-model.js';
import { send } from './vscode-api.js';

/** "Why this power": its place in the ordering first; the weighted score orders only candidates of close relevance. */
function why(score: PowerScoreInfo, rank: number): HTMLElement {
  const explanation = score.explanation;
  if (!explanation) return el('span', { class: 'muted small' }, '–');
  const segments = contributionSegments(explanation);
  const stack = el('div', { class: 'stack', 'aria-label': 'factor contributions' });
  for (const segment of segments) {
    if (segment.percent <= 0) continue;
    const part = el('div', {
      class: `segment factor-${segment.factor}`,
      title: `${segment.label}: ${formatNumber(segment.value)} (${segment.percent}%)`,
    });
    part.style.width = `${segment.percent}%`;
    stack.append(part);
  }
  return el(
    'details',
    { class: 'why', 'data-why': score.name },
    el('summary', {}, `#${rank} ${explanation.movedByHistory ? 'moved by history' : 'by relevance'}`),
    el('p', { class: 'small' }, orderSentence(explanation)),
    stack,
    el(
      'ul',
      { class: 'legend small' },
      ...segments.map((segment) =>
        el(
          'li',
          {},
          el('span', { class: `swatch factor-${segment.factor}` }),
          `${segment.label} ${Math.round(segment.percent)}%`,
        ),
      ),
    ),
    el(
      'p',
      { class: 'small' },
      el('strong', {}, 'Relevance: '),
      relevanceFacts(explanation, score.matchType, score.matchedWords).join(' '),
    ),
    el('p', { class: 'small' }, el('strong', {}, 'History: '), historyFacts(explanation).join(' · ')),
  );
}

export function resultView(result: ResolveResult, powers: PowerInfo[]): Node[] {
  const summary = tierSummary(result);
  const rows = scoreRows(result, powers);
  const byName = new Map(result.scores.map((score) => [score.name, score]));
  return [
    el(
      'div',
      { class: `tier tier-${result.tier}`, 'data-testid': 'tier' },
      el('vscode-badge', {}, summary.label),
      el('span', {}, ` "${result.query}": ${summary.text}`),
    ),
    ...(result.resolver
      ? [
          el(
            'p',
            { class: 'muted small', 'data-testid': 'resolver' },
            `Resolver: ${result.resolver.mode} (${result.resolver.detail})`,
          ),
        ]
      : []),
    el(
      'table',
      { class: 'grid', 'data-testid': 'scores' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', {}, 'Power'),
          el('th', {}, 'Confidence'),
          el('th', {}, 'Tier'),
          el('th', {}, 'Matched'),
          el('th', {}, 'Why this power'),
          el('th', {}, ''),
        ),
      ),
      el(
        'tbody',
        {},
        ...rows.map((row) => {
          const score = byName.get(row.name)!;
          return el(
            'tr',
            { 'data-score': row.name, class: row.offered ? 'offered' : '' },
            el(
              'td',
              {},
              el('strong', {}, row.name),
              ...score.flags.map((flag) => el('div', { class: 'flag small', 'data-flag': row.name }, `⚠ ${flag}`)),
            ),
            el(
              'td',
              { class: 'confidence' },
              bar(row.percent, `band-${row.band}`),
              el('span', { class: 'number' }, row.confidenceText),
            ),
            el('td', {}, row.bandText),
            el('td', { class: 'muted small' }, row.matched),
            el('td', {}, why(score, result.scores.indexOf(score) + 1)),
            el(
              'td',
              { class: 'actions' },
              row.active
                ? el('span', { class: 'muted' }, 'active')
                : button('Activate', () => send({ type: 'activate', name: row.name }), { secondary: !row.offered }),
            ),
          );
        }),
      ),
    ),
  ];
}
