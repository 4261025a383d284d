/**
 * Tokens saved over time, as chart geometry: one bar per day (saved that day, left axis) and the
 * running total (line, right axis), over at least two weeks ending today so that a first day of use
 * still reads as a point in time. Pure numbers for tokens-section.ts to draw as SVG; no DOM.
 */
import type { TokenReportInfo } from '../protocol/records.js';
import { formatTokens, niceStep } from './format.js';

export interface ChartBar {
  day: string;
  x: number;
  y: number;
  width: number;
  height: number;
  saved: number;
  results: number;
}

export interface ChartTick {
  value: number;
  y: number;
  label: string;
}

export interface TokenChart {
  width: number;
  height: number;
  plot: { x: number; y: number; width: number; height: number };
  bars: ChartBar[];
  /** The running total as SVG path data, and its points. */
  line: string;
  points: Array<{ x: number; y: number; day: string; total: number }>;
  /** Left axis: tokens saved per day. */
  ticks: ChartTick[];
  /** Right axis: running total. */
  totalTicks: ChartTick[];
  /** Day labels under the axis, spaced so they do not collide. */
  labels: Array<{ x: number; text: string }>;
  total: number;
  /** Nothing saved in the period: only the zero line is drawn. */
  empty: boolean;
}

export interface ChartOptions {
  /** YYYY-MM-DD (UTC), the last day shown at least. */
  today: string;
  minDays?: number;
  width?: number;
  height?: number;
}

const DAY_MS = 24 * 3600 * 1000;
const MARGIN = { left: 48, right: 52, top: 12, bottom: 26 };

export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** Every day from `first` to `last`, inclusive (YYYY-MM-DD, UTC). */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (
    let at = Date.parse(`${first}T00:00:00Z`), end = Date.parse(`${last}T00:00:00Z`);
    at <= end && days.length < 3660;
    at += DAY_MS
  )
    days.push(utcDay(at));
  return days;
}

function ticksFor(max: number, plotY: number, plotHeight: number): { ticks: ChartTick[]; top: number } {
  if (max <= 0) return { ticks: [{ value: 0, y: plotY + plotHeight, label: '0' }], top: 1 };
  const step = niceStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: ChartTick[] = [];
  for (let value = 0; value <= top + 1e-9; value += step)
    ticks.push({ value, y: plotY + plotHeight - (value / top) * plotHeight, label: formatTokens(value) });
  return { ticks, top };
}

export function tokenChart(byDay: TokenReportInfo['byDay'], options: ChartOptions): TokenChart {
  const width = options.width ?? 640;
  const height = options.height ?? 200;
  const minDays = options.minDays ?? 14;
  const plot = {
    x: MARGIN.left,
    y: MARGIN.top,
    width: width - MARGIN.left - MARGIN.right,
    height: height - MARGIN.top - MARGIN.bottom,
  };
  const sorted = [...byDay].sort((a, b) => a.day.localeCompare(b.day));
  const lastData = sorted.at(-1)?.day ?? options.today;
  const last = lastData > options.today ? lastData : options.today;
  const earliest = utcDay(Date.parse(`${last}T00:00:00Z`) - (minDays - 1) * DAY_MS);
  const first = sorted[0] && sorted[0].day < earliest ? sorted[0].day : earliest;
  const days = daysBetween(first, last);
  const byName = new Map(sorted.map((d) => [d.day, d]));
  const saved = days.map((day) => Math.max(0, byName.get(day)?.savedTokens ?? 0));
  let running = 0;
  const totals = saved.map((s) => (running += s));
  const daily = ticksFor(Math.max(0, ...saved), plot.y, plot.height);
  const cumulative = ticksFor(running, plot.y, plot.height);
  const slot = plot.width / days.length;
  const barWidth = Math.max(2, Math.min(28, slot * 0.7));
  const bars = days.map((day, i) => {
    const h = (saved[i] / daily.top) * plot.height;
    return {
      day,
      x: plot.x + slot * i + (slot - barWidth) / 2,
      y: plot.y + plot.height - h,
      width: barWidth,
      height: h,
      saved: saved[i],
      results: byName.get(day)?.results ?? 0,
    };
  });
  const points = days.map((day, i) => ({
    x: plot.x + slot * (i + 0.5),
    y: plot.y + plot.height - (totals[i] / cumulative.top) * plot.height,
    day,
    total: totals[i],
  }));
  const every = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(plot.width / 56))));
  const labels = days.flatMap((day, i) =>
    (i % every === 0 || i === days.length - 1) && (i === days.length - 1 || days.length - 1 - i > every / 2)
      ? [{ x: plot.x + slot * (i + 0.5), text: day.slice(5) }]
      : [],
  );
  const r = (n: number) => Math.round(n * 10) / 10;
  return {
    width,
    height,
    plot,
    bars,
    line: points.map((p, i) => `${i ? 'L' : 'M'}${r(p.x)},${r(p.y)}`).join(' '),
    points,
    ticks: daily.ticks,
    totalTicks: cumulative.ticks,
    labels,
    total: running,
    empty: running === 0,
  };
}
