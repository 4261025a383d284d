/** Token savings: saved over time (SVG chart), per power, and the tools/list savings of lazy activation. */
import { listedTwiceText, REQUEST_MODEL_TEXT, sessionsVerdict, toolListVerdict } from '../protocol/request-model.js';
import type { TokenReportInfo } from '../protocol/records.js';
import { bar, el, section, svg, svgTitle } from './dom.js';
import { formatBytes, formatPercent, formatTokens } from './format.js';
import { tokenChart, utcDay } from './token-chart.js';
import { readBars, sessionReadRows, type ReadBar } from './session-reads.js';

const WORDS = { tokens: formatTokens, percent: formatPercent };

function chart(report: TokenReportInfo, now: number): SVGElement {
  const c = tokenChart(report.byDay, { today: utcDay(now) });
  const root = svg('svg', {
    class: 'token-chart',
    viewBox: `0 0 ${c.width} ${c.height}`,
    width: '100%',
    role: 'img',
    'aria-label': `Tokens saved per day; ${formatTokens(c.total)} in all`,
    'data-testid': 'token-chart',
    preserveAspectRatio: 'xMinYMin meet',
  });
  const { plot } = c;
  for (const tick of c.ticks) {
    root.append(
      svg('line', {
        x1: plot.x,
        x2: plot.x + plot.width,
        y1: tick.y,
        y2: tick.y,
        class: tick.value === 0 ? 'axis' : 'gridline',
      }),
      svg('text', { x: plot.x - 6, y: tick.y + 4, class: 'tick left' }, tick.label),
    );
  }
  for (const tick of c.totalTicks)
    root.append(svg('text', { x: plot.x + plot.width + 6, y: tick.y + 4, class: 'tick right' }, tick.label));
  for (const b of c.bars) {
    if (b.saved <= 0) continue;
    root.append(
      svg(
        'rect',
        { x: b.x, y: b.y, width: b.width, height: Math.max(1, b.height), class: 'saved-bar', 'data-day': b.day },
        svgTitle(`${b.day}: ${formatTokens(b.saved)} tokens saved over ${b.results} summarized results`),
      ),
    );
  }
  root.append(svg('path', { d: c.line, class: 'total-line', 'data-testid': 'total-line' }));
  const last = c.points.at(-1);
  if (last)
    root.append(
      svg(
        'circle',
        { cx: last.x, cy: last.y, r: 3, class: 'total-dot' },
        svgTitle(`${formatTokens(last.total)} tokens saved in all`),
      ),
    );
  for (const label of c.labels)
    root.append(svg('text', { x: label.x, y: plot.y + plot.height + 16, class: 'tick bottom' }, label.text));
  if (c.empty)
    root.append(
      svg(
        'text',
        { x: plot.x + plot.width / 2, y: plot.y + plot.height / 2, class: 'chart-note', 'data-testid': 'chart-empty' },
        'Nothing summarized in these two weeks: only large results are.',
      ),
    );
  return root;
}

function byPower(report: TokenReportInfo): HTMLElement {
  if (report.byPower.length === 0) return el('p', { class: 'muted small' }, 'No result was summarized yet.');
  const max = Math.max(1, ...report.byPower.map((p) => p.savedTokens));
  return el(
    'table',
    { class: 'grid', 'data-testid': 'tokens-by-power' },
    el('thead', {}, el('tr', {}, ...['Power', 'Saved', '', 'Results', 'Reduction'].map((h) => el('th', {}, h)))),
    el(
      'tbody',
      {},
      ...report.byPower.map((p) =>
        el(
          'tr',
          { 'data-token-power': p.power },
          el('td', {}, el('strong', {}, p.power)),
          el('td', { class: 'number' }, formatTokens(p.savedTokens)),
          el('td', { class: 'meter' }, bar((p.savedTokens / max) * 100, 'saved')),
          el('td', { class: 'number' }, String(p.results)),
          el('td', { class: 'number' }, formatPercent(p.reduction)),
        ),
      ),
    ),
  );
}

function barRow(b: ReadBar, label: string): HTMLElement {
  return el(
    'tr',
    {},
    el('td', {}, label),
    el('td', { class: 'meter' }, bar(b.percent, b.className)),
    el('td', { class: 'number' }, formatTokens(b.tokens)),
  );
}

/** Per session: what the agent read through Grimoire against direct exposure of the same powers. */
function sessionReads(report: TokenReportInfo): HTMLElement {
  const rows = sessionReadRows(report.sessions).slice(0, 8);
  if (rows.length === 0)
    return el('p', { class: 'muted small', 'data-testid': 'session-reads' }, 'No agent session yet.');
  return el(
    'div',
    { 'data-testid': 'session-reads' },
    el(
      'table',
      { class: 'grid' },
      el(
        'tbody',
        {},
        ...rows.flatMap((row) => [
          el(
            'tr',
            { 'data-session': row.session, title: row.detail },
            el(
              'td',
              { colspan: '3' },
              el('strong', {}, `Session ${row.session.slice(0, 8)}`),
              el(
                'span',
                { class: 'muted small' },
                row.savedTokens >= 0
                  ? ` · ${formatTokens(row.savedTokens)} fewer`
                  : ` · ${formatTokens(-row.savedTokens)} more`,
              ),
            ),
          ),
          barRow(row.gateway, row.gateway.label),
          barRow(row.direct, row.direct.label),
        ]),
      ),
    ),
    el(
      'p',
      { class: 'small', 'data-testid': 'sessions-verdict' },
      sessionsVerdict(report.sessions.totals, report.toolsList.configured.tokens, WORDS),
    ),
  );
}

function toolsList(report: TokenReportInfo): HTMLElement {
  const t = report.toolsList;
  const bars = readBars(t.gateway.tokens + t.alsoDirect.tokens, t.configured.tokens);
  const besides =
    t.alsoDirect.tools > 0 ? ` plus the ${t.alsoDirect.tools} tools VS Code lists directly besides it` : '';
  return el(
    'div',
    { 'data-testid': 'tools-list-savings' },
    el(
      'table',
      { class: 'grid' },
      el(
        'tbody',
        {},
        barRow(
          bars.direct,
          `The configured powers' tools listed directly (${t.configured.tools} tools, ${t.configured.powers} powers)`,
        ),
        barRow(bars.gateway, `Grimoire's list now (${t.gateway.tools} tools)${besides}`),
      ),
    ),
    el('p', { class: 'small', 'data-testid': 'tools-list-verdict' }, toolListVerdict(t, WORDS)),
    ...t.listedTwice.map((entry) =>
      el(
        'p',
        { class: 'small', 'data-testid': 'listed-twice', 'data-power': entry.power },
        listedTwiceText(entry, WORDS),
      ),
    ),
  );
}

export function tokensSection(report: TokenReportInfo | undefined, now = Date.now()): HTMLElement {
  if (!report)
    return section('Token savings', 'tokens-section', el('p', { class: 'muted' }, 'Waiting for the gateway...'));
  const s = report.summarized;
  const figures = el(
    'div',
    { class: 'figures', 'data-testid': 'token-figures' },
    ...[
      [formatTokens(s.savedTokens), 'tokens saved by summaries'],
      [formatPercent(s.reduction), `reduction over ${s.results} summarized results`],
      [
        formatPercent(report.cache.hitRate),
        `cache hit rate (${report.cache.hits} hits, ${report.cache.similar} similar)`,
      ],
      [String(report.artifacts.count), `artifacts kept (${formatBytes(report.artifacts.bytes)})`],
    ].map(([value, label]) =>
      el('div', { class: 'figure' }, el('div', { class: 'value' }, value), el('div', { class: 'muted small' }, label)),
    ),
  );
  return section(
    'Token savings',
    'tokens-section',
    figures,
    el('h3', {}, 'What the agent read, per session'),
    el('p', { class: 'muted small', 'data-testid': 'request-model' }, REQUEST_MODEL_TEXT),
    sessionReads(report),
    el('h3', {}, 'Saved by summaries over time'),
    el('div', { class: 'chart-box' }, chart(report, now)),
    el(
      'ul',
      { class: 'legend small' },
      el('li', {}, el('span', { class: 'swatch saved' }), 'saved that day (left axis)'),
      el('li', {}, el('span', { class: 'line total' }), 'running total (right axis)'),
    ),
    el(
      'div',
      { class: 'columns two' },
      el('div', {}, el('h3', {}, 'Per power'), byPower(report)),
      el('div', {}, el('h3', {}, 'Tool list, per model request'), toolsList(report)),
    ),
    el('p', { class: 'muted small' }, `Counted with ${report.tokenizer}.`),
  );
}
