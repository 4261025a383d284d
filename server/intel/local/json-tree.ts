/** Trees (directory_tree and the like): flattened to paths, counted by kind and extension, paths kept by folder. */
import { clip, joinWithin, plural, topCounts } from './format.js';
import { isPlainObject } from './json-collections.js';
import type { Findings } from './findings.js';

interface Entry {
  path: string;
  kind: string;
  depth: number;
  isDir: boolean;
}

const NAME_KEYS = ['name', 'path', 'title', 'label', 'id', 'key'];

export function summarizeTree(roots: unknown[], childKey: string, out: Findings, rootLabel: string): void {
  const entries: Entry[] = [];
  const walk = (nodes: unknown[], prefix: string, depth: number) => {
    for (const node of nodes) {
      if (!isPlainObject(node)) continue;
      const name = NAME_KEYS.map((k) => node[k]).find((v) => typeof v === 'string' || typeof v === 'number');
      const children = Array.isArray(node[childKey]) ? (node[childKey] as unknown[]) : undefined;
      const kind =
        typeof node.type === 'string'
          ? node.type
          : typeof node.kind === 'string'
            ? node.kind
            : children
              ? 'directory'
              : 'file';
      const isDir = children !== undefined || /^(dir|directory|folder)$/i.test(kind);
      const path = `${prefix}${String(name ?? '?')}`;
      entries.push({ path: isDir ? `${path}/` : path, kind, depth, isDir });
      if (children) walk(children, `${path}/`, depth + 1);
    }
  };
  walk(roots, '', 0);
  const dirs = entries.filter((e) => e.isDir);
  const files = entries.filter((e) => !e.isDir);
  const depth = entries.reduce((max, e) => Math.max(max, e.depth), 0) + 1;
  out.finding(
    `Tree${rootLabel} of ${plural(entries.length, 'entry', 'entries')}: ` +
      `${plural(files.length, 'file')} and ${plural(dirs.length, 'folder')}, ` +
      `${plural(depth, 'level')} deep.`,
  );
  const top = entries.filter((e) => e.depth === 0).map((e) => e.path);
  out.finding(`Top level: ${joinWithin(top, 200)}.`);
  const extensions = new Map<string, number>();
  for (const file of files) {
    const match = /\.([A-Za-z0-9]{1,8})$/.exec(file.path);
    const ext = match ? `.${match[1]!.toLowerCase()}` : '(no extension)';
    extensions.set(ext, (extensions.get(ext) ?? 0) + 1);
  }
  if (extensions.size > 0) out.finding(`File types: ${topCounts(extensions, 6)}.`);
  const sizes = new Map<string, number>();
  for (const entry of entries) {
    const slash = entry.path.replace(/\/$/, '').lastIndexOf('/');
    if (slash < 0) continue;
    const parent = entry.path.slice(0, slash + 1);
    sizes.set(parent, (sizes.get(parent) ?? 0) + 1);
  }
  if (sizes.size > 1) out.finding(`Biggest folders (direct entries): ${topCounts(sizes, 4, 60)}.`);
  const empty = dirs.filter((d) => !entries.some((e) => e !== d && e.path.startsWith(d.path)));
  if (empty.length > 0)
    out.insight(
      `${plural(empty.length, 'folder is', 'folders are')} empty: ${clip(empty.map((d) => d.path).join(', '), 160)}.`,
    );

  // Every path, grouped by folder: `folder/: a.ts b.ts`.
  const byFolder = new Map<string, string[]>();
  for (const entry of entries) {
    const trimmed = entry.path.replace(/\/$/, '');
    const slash = trimmed.lastIndexOf('/');
    const folder = slash < 0 ? '' : trimmed.slice(0, slash + 1);
    const name = trimmed.slice(slash + 1) + (entry.isDir ? '/' : '');
    const list = byFolder.get(folder);
    if (list) list.push(name);
    else byFolder.set(folder, [name]);
  }
  out.identifierGroups(
    'paths',
    [...byFolder.entries()].map(([folder, names]) => ({ label: folder || './', values: names })),
    entries.length,
  );
}
