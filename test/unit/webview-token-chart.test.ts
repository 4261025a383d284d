import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPercent, formatTokens, niceStep } from '../../webview/format.js';
import { daysBetween, tokenChart } from '../../webview/token-chart.js';
import { readBars, sessionReadRows } from '../../webview/session-reads.js';

const day = (d: string, saved: number, results = 1) => ({
  day: d,
  results,
  rawTokens: saved * 2,
  deliveredTokens: saved,
  savedTokens: saved,
  reduction: 0.5,
});

test('two weeks ending today at least, a bar per day with savings, the running total never going down', () => {
  const chart = tokenChart([day('2026-11-20', 5000, 3), day('2026-11-22', 12000, 5)], { today: '2026-11-22' });
  assert.equal(chart.bars.length, 14);
  assert.equal(chart.bars[0].day, '2026-11-09');
  assert.equal(chart.bars.at(-1)!.day, '2026-11-22');
  assert.deepEqual(
    chart.bars.filter((b) => b.saved > 0).map((b) => [b.day, b.saved, b.results]),
    [
      ['2026-11-20', 5000, 3],
      ['2026-11-22', 12000, 5],
    ],
  );
  const tall = chart.bars.at(-1)!;
  const short = chart.bars.find((b) => b.day === '2026-11-20')!;
  assert.ok(tall.height > short.height && short.height > 0);
  assert.ok(
    tall.y >= chart.plot.y && tall.y + tall.height <= chart.plot.y + chart.plot.height + 1e-9,
    'inside the plot',
  );
  assert.equal(chart.total, 17000);
  assert.deepEqual(chart.points.map((p) => p.total).slice(-3), [5000, 5000, 17000]);
  for (let i = 1; i < chart.points.length; i += 1) assert.ok(chart.points[i].y <= chart.points[i - 1].y);
  assert.equal(chart.ticks.at(-1)!.label, '15k');
  assert.equal(chart.totalTicks.at(-1)!.label, '20k');
  assert.ok(chart.totalTicks.at(-1)!.value >= chart.total, 'the right axis reaches the total');
  assert.equal(chart.labels.at(-1)!.text, '11-22');
  const xs = chart.labels.map((l) => l.x);
  for (let i = 1; i < xs.length; i += 1) assert.ok(xs[i] - xs[i - 1] >= 40, 'day labels do not collide');
});

test('a long history is shown whole; no data is an empty chart with a zero axis; days after today are kept', () => {
  assert.equal(tokenChart([day('2026-10-01', 100)], { today: '2026-11-22' }).bars.length, 53);
  const empty = tokenChart([], { today: '2026-11-22' });
  assert.deepEqual(
    [
      empty.total,
      empty.empty,
      empty.bars.every((b) => b.height === 0),
      empty.ticks.map((t) => t.label),
      empty.totalTicks.length,
    ],
    [0, true, true, ['0'], 1],
  );
  assert.ok(
    empty.points.every((p) => p.y === empty.plot.y + empty.plot.height),
    'the running total lies on the zero line',
  );
  assert.equal(
    tokenChart([day('2026-11-23', 10)], { today: '2026-11-22' }).bars.at(-1)!.day,
    '2026-11-23',
    'a UTC day ahead of the local one',
  );
  assert.deepEqual(daysBetween('2026-02-27', '2026-03-01'), ['2026-02-27', '2026-02-28', '2026-03-01']);
});

test('numbers in words', () => {
  assert.deepEqual([0, 950, 5000, 1500, 12345, 1234567, 20_000_000].map(formatTokens), [
    '0',
    '950',
    '5k',
    '1.5k',
    '12k',
    '1.23M',
    '20M',
  ]);
  assert.equal(formatTokens(1030), '1.03k');
  assert.deepEqual([formatPercent(0.734), formatPercent(null)], ['73%', '–']);
  assert.deepEqual([niceStep(17000 / 1), niceStep(100), niceStep(0), niceStep(7)], [5000, 25, 1, 2]);
});

test('what the agent read per session: the smaller number is drawn smaller, and green only when it is the gateway', () => {
  const fewer = readBars(2_000, 8_000);
  assert.ok(fewer.gateway.percent < fewer.direct.percent);
  assert.equal(fewer.direct.percent, 100);
  assert.equal(fewer.gateway.className, 'saved');
  const more = readBars(9_840, 6_600);
  assert.ok(more.gateway.percent > more.direct.percent, 'a larger gateway figure is drawn larger');
  assert.equal(more.gateway.className, 'over', 'and not green');
  const rows = sessionReadRows({
    rows: [
      {
        session: 's',
        startedAt: 1,
        lastAt: 2,
        gateway: {
          requests: 2,
          toolsLists: 2,
          toolsListTokens: 10,
          alsoDirectTokens: 0,
          answers: 1,
          answerTokens: 5,
          results: 1,
          resultTokens: 5,
          tokens: 20,
        },
        direct: { requests: 1, toolsListTokens: 30, resultTokens: 50, tokens: 80 },
        savedTokens: 60,
      },
    ],
    totals: {
      gatewayTokens: 20,
      directTokens: 80,
      savedTokens: 60,
      reduction: 0.75,
      extraRequests: 1,
      alsoDirectTokens: 0,
    },
  });
  assert.equal(rows[0]!.gateway.percent, 25);
  assert.match(rows[0]!.detail, /2 requests carrying the tool list \(10\)/);
  assert.match(rows[0]!.detail, /Directly: 1 request carrying every configured power's tools \(30\)/);
});
