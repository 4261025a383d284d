/** Delimited tables (CSV, TSV, pipes): columns, row count, distributions, ranges, the id columns' values. */
import { clip, joinWithin, plural, topCounts } from './format.js';
import type { Findings } from './findings.js';
import { idPriority, isIdField, isSalientText } from './id-fields.js';

const DELIMITERS = [',', '\t', ';', '|'];

/** The delimiter when the first lines have the same number of fields (at least two), else undefined. */
export function detectDelimiter(lines: string[]): string | undefined {
  const sample = lines.filter((l) => l.trim()).slice(0, 20);
  if (sample.length < 3) return undefined;
  for (const delimiter of DELIMITERS) {
    const rows = sample.map((line) => splitRow(line, delimiter));
    const first = rows[0]!.length;
    if (first < 2 || rows.filter((r) => r.length === first).length < sample.length * 0.8) continue;
    // Cells of a table are short; prose with a comma per line is not a table.
    const cells = rows.flat();
    const short = cells.filter((c) => c.length <= 40 && c.split(/\s+/).length <= 5).length;
    const header = rows[0]!.every((c) => c.length <= 40 && c.split(/\s+/).length <= 4);
    if (header && short >= cells.length * 0.8) return delimiter;
  }
  return undefined;
}

/** Splits one row, honouring double quotes. */
export function splitRow(line: string, delimiter: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      out.push(field.trim());
      field = '';
    } else field += c;
  }
  out.push(field.trim());
  return out;
}

export function summarizeTable(lines: string[], delimiter: string, out: Findings): void {
  const rows = lines
    .filter((l) => l.trim() && !/^[\s|:-]+$/.test(l))
    .map((l) => splitRow(delimiter === '|' ? l.replace(/^\s*\||\|\s*$/g, '') : l, delimiter));
  const header = rows[0]!;
  const body = rows.slice(1);
  const name = delimiter === '\t' ? 'TSV' : delimiter === '|' ? 'Table' : 'CSV';
  out.finding(
    `${name} with ${plural(body.length, 'row')} and ${plural(header.length, 'column')}: ${joinWithin(header, 220)}.`,
  );
  const categorical: string[] = [];
  const ranges: string[] = [];
  header.forEach((column, index) => {
    const values = body.map((row) => row[index] ?? '').filter((v) => v !== '');
    if (values.length === 0) return;
    if (isIdField(column) || isIdField(column.replace(/\s+/g, '_'))) {
      out.identifiers(column, values, idPriority(column.replace(/\s+/g, '_')));
      return;
    }
    const numbers = values.map(Number).filter((n) => Number.isFinite(n));
    if (numbers.length >= values.length * 0.9) {
      let min = Infinity;
      let max = -Infinity;
      let sum = 0;
      for (const n of numbers) {
        min = Math.min(min, n);
        max = Math.max(max, n);
        sum += n;
      }
      ranges.push(`${column} ${min}–${max} (mean ${Math.round((sum / numbers.length) * 100) / 100})`);
      return;
    }
    const counts = new Map<string, number>();
    for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
    if (counts.size <= 12 && counts.size < values.length * 0.5)
      categorical.push(`${column}: ${topCounts(counts, 5, 30)}`);
  });
  if (categorical.length > 0) out.finding(categorical.slice(0, 3).join('; ') + '.');
  if (ranges.length > 0) out.finding(ranges.slice(0, 4).join('; ') + '.');
  out.finding(
    `First rows: ${joinWithin(
      body.slice(0, 2).map((row) => clip(row.join(', '), 120)),
      260,
      ' · ',
    )}.`,
  );
  const flagged = body.filter((row) => row.some((cell) => isSalientText(cell)));
  if (flagged.length > 0) {
    // Every flagged row by its key (the id column, else the first), grouped by the cell that flags it.
    const keyColumn = Math.max(
      0,
      header.findIndex((c) => isIdField(c) || isIdField(c.replace(/\s+/g, '_'))),
    );
    const groups = new Map<string, string[]>();
    for (const row of flagged) {
      const at = row.findIndex((cell) => isSalientText(cell));
      const condition =
        row[at]!.length <= 30
          ? `${header[at] ?? `column ${at + 1}`}=${row[at]}`
          : `${header[at] ?? `column ${at + 1}`} mentions a failure`;
      groups.set(condition, [...(groups.get(condition) ?? []), row[keyColumn] ?? '']);
    }
    const sorted = [...groups].sort((a, b) => b[1].length - a[1].length);
    const kept =
      sorted.length <= 5
        ? sorted
        : [...sorted.slice(0, 4), ['other flags', sorted.slice(4).flatMap(([, keys]) => keys)] as [string, string[]]];
    for (const [condition, keys] of kept)
      out.attention(`${condition} (${keys.length}) by ${header[keyColumn]}`, keys.filter(Boolean));
    out.insight(
      `${plural(flagged.length, 'row')} mention errors or failures, all named under identifiers; ` +
        `e.g. ${clip(flagged[0]!.join(', '), 100)}.`,
    );
  }
  // Without a named id column, the first column is usually the key.
  if (!header.some((c) => isIdField(c) || isIdField(c.replace(/\s+/g, '_'))))
    out.identifiers(header[0]!, body.map((row) => row[0] ?? '').filter(Boolean), 2);
}
