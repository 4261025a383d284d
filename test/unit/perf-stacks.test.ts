import assert from 'node:assert/strict';
import { test } from 'node:test';
import { partOf, stacksOf } from '../bench/perf-stacks.js';

const script = `node 101 cpu-clock:
\t7f01 walWriteOneFrame (/work/node_modules/better-sqlite3/build/Release/better_sqlite3.node)
\t7f02 JS:*run /work/out/server/store/database.js:70:8 (/tmp/perf-101.map)
\t7f03 JS:*recordMany /work/out/server/activity/activity-log.js:82:15 (/tmp/perf-101.map)

node 101 cpu-clock:
\t7f04 v8::internal::ScavengerCollector::CollectGarbage (/usr/bin/node)
\t7f05 JS:*safeParse /work/node_modules/zod/v4/classic/schemas.cjs:267:1 (/tmp/perf-101.map)

node 101 cpu-clock:
\t7f0d JS:* :3:17 (/tmp/perf-101.map)
\t7f06 JS:*safeParse /work/node_modules/zod/v4/classic/schemas.cjs:267:1 (/tmp/perf-101.map)
\t7f07 JS:*callTool /work/node_modules/@modelcontextprotocol/client/dist/public-C-9H-ftO.cjs:3868:1 (/tmp/perf-101.map)

node 101 cpu-clock:
\t7f08 __GI___libc_write (/usr/lib/libc.so.6)
\t7f09 JS:*writeOrBuffer node:internal/streams/writable:548:23 (/tmp/perf-101.map)
\t7f0a JS:*releaseCoalesced /work/out/server/util/coalesced-write.js:9:26 (/tmp/perf-101.map)

node 101 cpu-clock:
\t7f0b epoll_pwait (/usr/lib/libc.so.6)
\t7f0c uv_run (/usr/bin/node)
`;

test('perf script stacks are read frame by frame and each goes to the part of its innermost JavaScript function with a script', () => {
  const stacks = stacksOf(script);
  assert.equal(stacks.length, 5);
  assert.deepEqual(stacks[0], [
    'walWriteOneFrame (/work/node_modules/better-sqlite3/build/Release/better_sqlite3.node)',
    'JS:*run /work/out/server/store/database.js:70:8 (/tmp/perf-101.map)',
    'JS:*recordMany /work/out/server/activity/activity-log.js:82:15 (/tmp/perf-101.map)',
  ]);
  assert.deepEqual(
    stacks.map((stack) => partOf(stack)),
    ['gateway', 'gc', 'sdk', 'node', 'system'],
  );
});
