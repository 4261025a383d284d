/** Recommendation quality: MRR and precision@k of what the agent used, the ranking weights, and the tune button. */
import type { RecommendationStats } from '../protocol/records.js';
import { bar, button, el, section } from './dom.js';
import { canTune, metricCards, tuneReadiness, weightBars } from './quality-model.js';
import { send } from './vscode-api.js';

const SOURCES: Array<{ key: 'all' | 'resolveIntent' | 'retrieveTools'; label: string }> = [
  { key: 'all', label: 'All' },
  { key: 'resolveIntent', label: 'resolve_intent' },
  { key: 'retrieveTools', label: 'retrieve_tools' },
];

export function qualitySection(stats: RecommendationStats | undefined, message: string): HTMLElement {
  if (!stats)
    return section(
      'Recommendation quality',
      'quality-section',
      el('p', { class: 'muted' }, 'Waiting for the gateway...'),
    );
  const metrics = el(
    'table',
    { class: 'grid metrics', 'data-testid': 'metrics' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', {}, ''),
        ...metricCards(stats.all).map((card) => el('th', { title: card.detail }, card.label)),
      ),
    ),
    el(
      'tbody',
      {},
      ...SOURCES.map((source) =>
        el(
          'tr',
          { 'data-metrics': source.key },
          el('td', {}, source.label),
          ...metricCards(stats[source.key]).map((card) =>
            el('td', { class: 'number', title: card.detail }, card.value),
          ),
        ),
      ),
    ),
  );
  const weights = el(
    'table',
    { class: 'grid weights', 'data-testid': 'weights' },
    el(
      'tbody',
      {},
      ...weightBars(stats).map((w) =>
        el(
          'tr',
          { 'data-weight': w.factor },
          el('td', {}, w.label),
          el(
            'td',
            { class: 'confidence' },
            bar(w.percent, `factor-${w.factor}`),
            el('span', { class: 'number' }, `${w.percent}%`),
          ),
          el('td', { class: 'muted small' }, w.changed ? `default ${w.defaultPercent}%` : 'default'),
        ),
      ),
    ),
  );
  return section(
    'Recommendation quality',
    'quality-section',
    el(
      'p',
      { class: 'muted small' },
      'How often the agent used what resolve_intent and retrieve_tools recommended, and at which rank.',
    ),
    metrics,
    el(
      'div',
      { class: 'columns two' },
      el('div', {}, el('h3', {}, 'Ranking weights'), weights),
      el(
        'div',
        {},
        el('h3', {}, 'Tune'),
        el('p', { class: 'small' }, tuneReadiness(stats)),
        button('Tune weights', () => send({ type: 'tune' }), {
          testId: 'tune',
          secondary: true,
          disabled: !canTune(stats),
          title: tuneReadiness(stats),
        }),
        el('p', { class: 'small', 'data-testid': 'tune-result', role: 'status' }, message),
      ),
    ),
  );
}
