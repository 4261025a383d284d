/**
 * The gateway's CPU by part from `perf script` output (call-cpu-parts.ts): each sampled stack goes to
 * garbage collection when a collector frame is on it, else to the package of its innermost
 * JavaScript function (Node's `--perf-basic-prof-only-functions` names them `JS:...`), else to the
 * system (syscalls, the scheduler, malloc, libuv).
 */
export type Part = 'sdk' | 'gc' | 'gateway' | 'node' | 'system';

export const PART_NAMES: Record<Part, string> = {
  sdk: "the SDK's code and its zod checks",
  gc: 'garbage collection',
  gateway: "the gateway's own code and its other packages, the call's record included",
  node: "Node's streams, timers, events and abort signals",
  system: 'system calls, the scheduler, malloc, libuv',
};

const GC_FRAME = /Heap::|Scaveng|MarkCompact|Sweeper|GCTracer|ConcurrentMarking/;

/**
 * A JavaScript frame with its script: `JS:<name> <script>:<line>:<column>` (code made by `new Function`, as
 * zod compiles its parsers, names none).
 */
const SCRIPT_FRAME = /^JS:\S* \S+:\d+:\d+/;

/** The part a sample's stack (innermost frame first) belongs to: code without a script goes with its caller's. */
export function partOf(frames: string[]): Part {
  if (frames.some((frame) => GC_FRAME.test(frame))) return 'gc';
  const js = frames.find((frame) => SCRIPT_FRAME.test(frame));
  if (!js) return 'system';
  if (js.includes('/zod/') || js.includes('@modelcontextprotocol')) return 'sdk';
  return js.includes(' node:') ? 'node' : 'gateway';
}

/** Stacks of `perf script` output: a header line, then one indented frame a line, then a blank line. */
export function stacksOf(script: string): string[][] {
  const stacks: string[][] = [];
  let frames: string[] | undefined;
  for (const line of script.split('\n')) {
    if (!line.trim()) {
      if (frames) stacks.push(frames);
      frames = undefined;
    } else if (!/^\s/.test(line)) frames = [];
    else frames?.push(line.trim().split(/\s+/).slice(1).join(' '));
  }
  if (frames) stacks.push(frames);
  return stacks;
}
