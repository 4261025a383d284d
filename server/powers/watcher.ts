/**
 * Watches folders and files that may not exist yet: a missing path is covered by watching its nearest
 * existing ancestor for the next path component, and re-armed as the path appears or disappears.
 * fs.watch where it works, fs.watchFile polling where it throws (or when asked to poll).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface WatchTarget {
  path: string;
  kind: 'dir' | 'file';
}

export interface PathWatcherOptions {
  /** Poll with fs.watchFile everywhere instead of fs.watch. */
  poll?: boolean;
  pollIntervalMs?: number;
}

/** Names inside a watched folder that matter; null means every name. */
type Filter = Set<string> | null;

interface Active {
  identity: string;
  filter: Filter;
  polled: boolean;
  close(): void;
}

function identity(p: string): string {
  try {
    const st = fs.statSync(p);
    return `${st.dev}:${st.ino}`;
  } catch {
    return '';
  }
}

function signature(st: fs.Stats): string {
  return `${st.ino}:${st.mtimeMs}:${st.size}`;
}

function statSignature(p: string): string {
  try {
    return signature(fs.statSync(p));
  } catch {
    return '';
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function exists(p: string): boolean {
  return identity(p) !== '';
}

export class PathWatcher {
  private readonly active = new Map<string, Active>();
  private closed = false;

  constructor(
    private readonly targets: WatchTarget[],
    private readonly onChange: () => void,
    private readonly options: PathWatcherOptions = {},
  ) {}

  /** Brings the watches in line with the file system; true when it started watching something new. */
  arm(): boolean {
    if (this.closed) return false;
    const desired = this.desired();
    let opened = false;
    const polledDirs: [string, Filter][] = [];
    for (const [p, filter] of desired) {
      const current = this.active.get(p);
      if (current && current.identity === identity(p)) {
        current.filter = filter;
      } else {
        current?.close();
        this.active.set(p, this.open(p, filter, !!this.options.poll));
        opened = true;
      }
      if (this.active.get(p)!.polled && isDir(p)) polledDirs.push([p, filter]);
    }
    // A polled folder's mtime does not change when a file in it is edited in place: poll those files too.
    for (const [dir, filter] of polledDirs) {
      for (const name of filter ?? this.children(dir)) {
        const child = path.join(dir, name);
        if (desired.has(child)) continue;
        desired.set(child, null);
        if (!this.active.has(child)) {
          this.active.set(child, this.open(child, null, true));
          opened = true;
        }
      }
    }
    for (const [p, watch] of this.active) {
      if (!desired.has(p)) {
        watch.close();
        this.active.delete(p);
      }
    }
    return opened;
  }

  close(): void {
    this.closed = true;
    for (const watch of this.active.values()) watch.close();
    this.active.clear();
  }

  private desired(): Map<string, Filter> {
    const desired = new Map<string, Filter>();
    const want = (p: string, name: string | null) => {
      if (!desired.has(p)) desired.set(p, name === null ? null : new Set());
      const filter = desired.get(p)!;
      if (filter && name !== null) filter.add(name);
      else if (name === null) desired.set(p, null);
    };
    for (const target of this.targets) {
      const full = path.resolve(target.path);
      if (this.options.poll) {
        want(full, null);
        continue;
      }
      // A file is watched through its folder, so that editors that save by rename are seen.
      let child = target.kind === 'file' ? path.basename(full) : null;
      let at = target.kind === 'file' ? path.dirname(full) : full;
      while (!exists(at) && path.dirname(at) !== at) {
        child = path.basename(at);
        at = path.dirname(at);
      }
      want(at, child);
    }
    return desired;
  }

  private children(dir: string): string[] {
    try {
      return fs.readdirSync(dir);
    } catch {
      return [];
    }
  }

  private open(p: string, filter: Filter, poll: boolean): Active {
    const entry: Active = { identity: identity(p), filter, polled: poll, close: () => {} };
    if (!poll) {
      try {
        const watcher = fs.watch(p, { persistent: false }, (event, name) => {
          // The watched path itself was deleted or replaced (inode numbers get reused): re-open on the next arm.
          if (event === 'rename' && name?.toString() === path.basename(p)) entry.identity = 'stale';
          if (entry.filter === null || !name || entry.filter.has(name.toString()) || entry.identity === 'stale')
            this.onChange();
        });
        watcher.on('error', () => {
          watcher.close();
          entry.identity = 'stale';
          this.onChange();
        });
        entry.close = () => watcher.close();
        return entry;
      } catch {
        entry.polled = true;
      }
    }
    const listener = (curr: fs.Stats, prev: fs.Stats) => {
      if (signature(curr) !== signature(prev)) this.onChange();
    };
    const interval = this.options.pollIntervalMs ?? 1000;
    fs.watchFile(p, { persistent: false, interval }, listener);
    // fs.watchFile takes its baseline on its first poll, so a change made before that would go unseen.
    const before = statSignature(p);
    const catchUp = setTimeout(() => {
      if (statSignature(p) !== before) this.onChange();
    }, interval * 2);
    catchUp.unref();
    entry.close = () => {
      clearTimeout(catchUp);
      fs.unwatchFile(p, listener);
    };
    return entry;
  }
}
