/** Directory listings (`[DIR] x` / `[FILE] y`, `ls -l`, tree drawings) and lists of paths (search results). */
import { formatBytes, joinWithin, plural, topCounts } from './format.js';
import type { Findings } from './findings.js';

const MARKED = /^\[(DIR|FILE)\]\s+(.+?)(?:\s{2,}([\d.]+\s*[KMGT]?B))?\s*$/;
const LS_LONG = /^([dl-])[rwxsStT-]{9}[@+.]?\s+\d+\s+\S+\s+\S+\s+(\d+)\s+\w{3}\s+\d+\s+[\d:]+\s+(.+)$/;
const TREE = /^([│|\s]*)(?:├──|└──|\|--|`--)\s*(.+)$/;
const PATH_LINE = /^(?:[A-Za-z]:)?[~.]?[\\/]?(?:[^\s\\/]+[\\/])+[^\s\\/]*$/;

interface Entry {
  name: string;
  isDir: boolean;
  bytes?: number;
}

/** True when most lines are listing entries or paths. */
export function isListing(lines: string[]): boolean {
  const sample = lines.filter((l) => l.trim()).slice(0, 200);
  if (sample.length < 3) return false;
  const hits = sample.filter(
    (l) => MARKED.test(l.trim()) || LS_LONG.test(l) || TREE.test(l) || PATH_LINE.test(l.trim()),
  ).length;
  return hits >= sample.length * 0.7;
}

export function summarizeListing(lines: string[], out: Findings): void {
  const entries: Entry[] = [];
  const totals: string[] = [];
  const treeStack: string[] = [];
  for (const raw of lines) {
    const line = raw.replace(/\s+$/, '');
    if (!line.trim()) continue;
    const marked = MARKED.exec(line.trim());
    const long = LS_LONG.exec(line);
    const tree = TREE.exec(line);
    if (marked)
      entries.push({
        name: marked[2]!,
        isDir: marked[1] === 'DIR',
        bytes: marked[3] ? parseSize(marked[3]) : undefined,
      });
    else if (long) entries.push({ name: long[3]!, isDir: long[1] === 'd', bytes: Number(long[2]) });
    else if (tree) {
      const depth = Math.floor(tree[1]!.replace(/│/g, '|').length / 4);
      treeStack.length = depth;
      const name = tree[2]!.trim();
      treeStack[depth] = name.replace(/\/$/, '');
      entries.push({ name: treeStack.slice(0, depth + 1).join('/'), isDir: name.endsWith('/') });
    } else if (PATH_LINE.test(line.trim())) entries.push({ name: line.trim(), isDir: /[\\/]$/.test(line.trim()) });
    else totals.push(line.trim());
  }
  const dirs = entries.filter((e) => e.isDir);
  const files = entries.filter((e) => !e.isDir);
  const pathList = entries.some((e) => /[\\/]/.test(e.name.replace(/[\\/]$/, '')));
  out.finding(
    `${pathList ? 'List of paths' : 'Directory listing'}: ${plural(entries.length, 'entry', 'entries')} ` +
      `(${plural(files.length, 'file')}, ${plural(dirs.length, 'folder')}).`,
  );
  const extensions = new Map<string, number>();
  for (const file of files) {
    const match = /\.([A-Za-z0-9]{1,8})$/.exec(file.name);
    const ext = match ? `.${match[1]!.toLowerCase()}` : '(no extension)';
    extensions.set(ext, (extensions.get(ext) ?? 0) + 1);
  }
  if (extensions.size > 0) out.finding(`File types: ${topCounts(extensions, 6)}.`);
  const sized = files.filter((f) => f.bytes !== undefined);
  if (sized.length > 0) {
    const total = sized.reduce((sum, f) => sum + (f.bytes ?? 0), 0);
    const largest = [...sized].sort((a, b) => (b.bytes ?? 0) - (a.bytes ?? 0)).slice(0, 3);
    out.finding(
      `Total size ${formatBytes(total)}; largest: ${largest.map((f) => `${f.name} (${formatBytes(f.bytes ?? 0)})`).join(', ')}.`,
    );
  }
  if (totals.length > 0) out.finding(joinWithin(totals, 200, ' · '));
  if (dirs.length > 0 && !pathList)
    out.finding(
      `Folders: ${joinWithin(
        dirs.map((d) => d.name),
        220,
      )}.`,
    );
  if (pathList) {
    const byFolder = new Map<string, string[]>();
    for (const entry of entries) {
      const name = entry.name.replace(/[\\/]$/, '');
      const cut = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
      const folder = cut < 0 ? './' : name.slice(0, cut + 1);
      const list = byFolder.get(folder);
      const leaf = name.slice(cut + 1) + (entry.isDir ? '/' : '');
      if (list) list.push(leaf);
      else byFolder.set(folder, [leaf]);
    }
    out.identifierGroups(
      'paths',
      [...byFolder.entries()].map(([label, values]) => ({ label, values })),
      entries.length,
    );
  } else {
    out.identifiers(
      'folders',
      dirs.map((d) => `${d.name}/`),
      1,
    );
    out.identifiers(
      'files',
      files.map((f) => f.name),
      1,
    );
  }
}

function parseSize(text: string): number {
  const match = /([\d.]+)\s*([KMGT]?)B/.exec(text);
  if (!match) return 0;
  const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 }[match[2] as '' | 'K' | 'M' | 'G' | 'T'];
  return Math.round(Number(match[1]) * unit);
}
