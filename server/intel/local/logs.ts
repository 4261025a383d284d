/** Logs: levels, time span, the distinct error messages (numbers masked) with counts, the ids on error lines. */
import { clip, plural, topCounts } from './format.js';
import type { Findings } from './findings.js';
import { textIdentifiers } from './text-ids.js';

const LEVEL = /\b(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|PANIC)\b/;
/** Lower-case levels count only as a word of their own near the line's start (`2026-... warn  [scope] ...`). */
const LOWER_LEVEL = /(?:^|\s)(trace|debug|info|notice|warn|warning|error|err|fatal|critical|panic)(?=\s)/;
const TIME =
  /^\[?(\d{4}-\d{2}-\d{2}[T ][\d:.,]+(?:Z|[+-]\d{2}:?\d{2})?|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?|\w{3}\s+\d+\s+\d{2}:\d{2}:\d{2})/;

export function isLog(lines: string[]): boolean {
  const sample = lines.filter((l) => l.trim()).slice(0, 200);
  if (sample.length < 5) return false;
  const hits = sample.filter((l) => TIME.test(l.trim()) || LEVEL.test(l.slice(0, 40))).length;
  return hits >= sample.length * 0.5;
}

export function summarizeLog(lines: string[], out: Findings): void {
  const nonEmpty = lines.filter((l) => l.trim());
  const levels = new Map<string, number>();
  const problems = new Map<string, { count: number; first: number; line: string }>();
  let firstTime: string | undefined;
  let lastTime: string | undefined;
  const errorLines: string[] = [];
  nonEmpty.forEach((line, index) => {
    const time = TIME.exec(line.trim())?.[1];
    if (time) {
      firstTime ??= time;
      lastTime = time;
    }
    const level = LEVEL.exec(line.slice(0, 60))?.[1] ?? LOWER_LEVEL.exec(line.slice(0, 40))?.[1];
    if (!level) return;
    const normal = normalLevel(level.toUpperCase());
    levels.set(normal, (levels.get(normal) ?? 0) + 1);
    if (normal === 'ERROR' || normal === 'FATAL' || normal === 'WARN') {
      const message = line.slice(line.indexOf(level) + level.length).replace(/^[\]:\s-]+/, '');
      const template = `${normal} ${message.replace(/\b[0-9a-f]{8,}\b|\d+/gi, '#').slice(0, 120)}`;
      const entry = problems.get(template);
      if (entry) entry.count++;
      else problems.set(template, { count: 1, first: index + 1, line: message });
      if (normal !== 'WARN') errorLines.push(line);
    }
  });
  out.finding(
    `Log of ${plural(nonEmpty.length, 'line')}${firstTime ? ` from ${firstTime} to ${lastTime}` : ''}; ` +
      `levels: ${topCounts(levels, 6) || 'none marked'}.`,
  );
  const ranked = [...problems.entries()].sort(
    (a, b) => severity(b[0]) - severity(a[0]) || b[1].count - a[1].count || a[1].first - b[1].first,
  );
  if (ranked.length > 0) {
    // Every distinct warning and error, by its message: none is left for the reader to find.
    for (const kind of ['FATAL', 'ERROR', 'WARN']) {
      const messages = ranked
        .filter(([template]) => template.startsWith(kind))
        .map(([, entry]) => `${clip(entry.line, 100)}${entry.count > 1 ? ` (×${entry.count})` : ''}`);
      if (messages.length > 0) out.attention(`${kind} messages (${messages.length})`, messages);
    }
    out.finding(
      `${plural(ranked.length, 'distinct problem')}: ${ranked
        .slice(0, 3)
        .map(([t, e]) => `${t.split(' ')[0]} ×${e.count} (first at line ${e.first}): ${clip(e.line, 90)}`)
        .join(' | ')}.`,
    );
    const [template, first] = ranked[0]!;
    out.insight(
      `Look at the ${template.split(' ')[0]} first seen at line ${first.first} (${first.count}×): ${clip(first.line, 120)}.`,
    );
  } else if (levels.size > 0) out.finding('No warnings or errors.');
  if (levels.size === 0) summarizeEvents(nonEmpty, out);
  const last = nonEmpty.slice(-2).map((l) => clip(l, 120));
  out.finding(`Last lines: ${last.join(' | ')}`);
  const ids = textIdentifiers(errorLines.join('\n'), ['uuids', 'hashes', 'codes', 'paths', 'urls', 'issues']);
  for (const [kind, values] of ids) out.identifiers(`${kind} on error lines`, values, 1);
}

/**
 * A log without levels whose lines name an event in one of their first words (dpkg's `install`,
 * `upgrade`, `status`): the events counted, and the subject (the next word) of every line of a rare
 * event (at most a tenth of the lines) named, since those are the lines a reader looks for.
 */
function summarizeEvents(lines: string[], out: Findings): void {
  const rows = lines.map((line) =>
    line
      .trim()
      .replace(TIME, '')
      .replace(/^[\]\s:-]+/, '')
      .split(/\s+/),
  );
  for (let column = 0; column < 3; column++) {
    const values = rows.map((row) => row[column]).filter((v): v is string => v !== undefined && v !== '');
    if (values.length < rows.length * 0.8 || !values.every((v) => /^[A-Za-z][\w-]{1,30}$/.test(v))) continue;
    const counts = new Map<string, number>();
    for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
    if (counts.size < 2 || counts.size > 12) continue;
    out.finding(`Events: ${topCounts(counts, 8)}.`);
    const rare = [...counts]
      .filter(([, n]) => n <= Math.max(1, rows.length / 10))
      .sort((a, b) => a[1] - b[1])
      .slice(0, 4);
    for (const [event] of rare) {
      const subjects = rows
        .filter((row) => row[column] === event)
        .map((row) => row[column + 1] ?? '')
        .filter(Boolean);
      out.attention(`${event} (${subjects.length})`, subjects);
    }
    return;
  }
}

function normalLevel(level: string): string {
  if (level === 'WARNING') return 'WARN';
  if (level === 'ERR') return 'ERROR';
  if (level === 'CRITICAL' || level === 'PANIC') return 'FATAL';
  return level;
}

const severity = (template: string) => (template.startsWith('FATAL') ? 3 : template.startsWith('ERROR') ? 2 : 1);
