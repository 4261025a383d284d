import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFiles, type ArtifactFiles } from '../../server/intel/artifacts/artifact-store.js';
import { handleIntelTool } from '../../server/intel/tools/intel-tool-handlers.js';
import { setLogSink } from '../../server/log.js';
import { allText, bigText, context, harness, metaOf, stageRunner, summaryOf, textResult } from './intel-helpers.js';

before(() => setLogSink(() => undefined));
after(() => setLogSink((line) => process.stderr.write(line + '\n')));

const MINUTE = 60_000;

test('read_artifact pages the full raw text; the pages put together are the result', async () => {
  const h = await harness();
  try {
    const raw = bigText(23_456);
    const id = summaryOf(await stageRunner(h).run(context(h), textResult(raw))).metadata.artifactId as string;
    let offset: number | null = 0;
    let joined = '';
    let pages = 0;
    while (offset !== null) {
      const page = (await handleIntelTool(h.intel, 'read_artifact', { id, offset, limit: 5000 }, ''))!;
      assert.notEqual(page.isError, true, allText(page));
      const meta = page.structuredContent as { next_offset: number | null; total_chars: number };
      assert.equal(meta.total_chars, raw.length);
      joined += (page.content![1] as { text: string }).text;
      offset = meta.next_offset;
      pages++;
      if (offset !== null)
        assert.match(
          (page.content![0] as { text: string }).text,
          new RegExp(`read_artifact\\(\\{"id":"${id}","offset":${offset}\\}\\)`),
        );
    }
    assert.equal(joined, raw);
    assert.equal(pages, 5);
    const unknown = (await handleIntelTool(h.intel, 'read_artifact', { id: 'art_000000000000' }, ''))!;
    assert.equal(unknown.isError, true);
    assert.match(allText(unknown), /No stored result 'art_000000000000'/);
    assert.match(
      allText((await handleIntelTool(h.intel, 'read_artifact', { id }, ''))!),
      /characters 0-8000 of 23456/,
      'default page is 8000 characters',
    );
  } finally {
    await h.close();
  }
});

test('TTL: an artifact is readable until it expires, then it is gone (row and file) and the cache no longer answers', async () => {
  const h = await harness({ artifacts: { ttlMinutes: 60 } });
  try {
    const { run, upstream } = stageRunner(h);
    // The spell opts in to the cache for longer than the artifacts live: the artifact TTL decides.
    const optIn = { cacheTtlSeconds: 7200 };
    const id = summaryOf(await run(context(h, optIn), textResult(bigText(4000)))).metadata.artifactId as string;
    const file = path.join(h.dataDir, 'artifacts', `${id}.txt`);
    assert.ok(fs.existsSync(file));
    h.clock.now += 59 * MINUTE;
    assert.notEqual(
      (await handleIntelTool(h.intel, 'read_artifact', { id }, ''))!.isError,
      true,
      'still readable after 59 min',
    );
    await run(context(h, { ...optIn, startedAt: h.clock.now }), textResult('unused'));
    assert.equal(upstream.calls, 1, 'the identical opted-in call is served from the cache within the TTL');

    h.clock.now += 2 * MINUTE;
    const expired = (await handleIntelTool(h.intel, 'read_artifact', { id }, ''))!;
    assert.equal(expired.isError, true);
    assert.match(allText(expired), /has expired \(results are kept 60 min\): call the tool again/);
    assert.equal(await h.intel.artifacts.sweep(), 1, 'the sweep removes the expired artifact');
    assert.equal(fs.existsSync(file), false, 'with its file');
    assert.match(allText((await handleIntelTool(h.intel, 'read_artifact', { id }, ''))!), /No stored result/);
    await run(context(h, { ...optIn, startedAt: h.clock.now }), textResult(bigText(4000)));
    assert.equal(upstream.calls, 2, 'after the TTL the server is called again');
  } finally {
    await h.close();
  }
});

test('eviction: under the size cap the oldest artifacts go first; one larger than the cap is not stored', async () => {
  const h = await harness({ artifacts: { maxBytes: 25_000 } });
  try {
    const { run } = stageRunner(h);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      h.clock.now += 1000;
      const result = await run(
        context(h, { args: { i }, startedAt: h.clock.now }),
        textResult(bigText(10_000, `batch${i}`)),
      );
      ids.push(summaryOf(result).metadata.artifactId);
    }
    const usage = await h.intel.artifacts.usage();
    assert.ok(usage.bytes <= 25_000, `${usage.bytes} bytes stored`);
    assert.equal(usage.count, 2);
    for (const old of ids.slice(0, 2))
      assert.match(allText((await handleIntelTool(h.intel, 'read_artifact', { id: old }, ''))!), /No stored result/);
    for (const kept of ids.slice(2))
      assert.notEqual((await handleIntelTool(h.intel, 'read_artifact', { id: kept }, ''))!.isError, true);
    assert.deepEqual(
      fs.readdirSync(path.join(h.dataDir, 'artifacts')).sort(),
      ids
        .slice(2)
        .map((id) => `${id}.txt`)
        .sort(),
    );

    const huge = await run(context(h, { args: { huge: true } }), textResult(bigText(30_000)));
    assert.equal(summaryOf(huge).metadata.artifactId, undefined);
    assert.match(allText(huge), /could not be stored \(it is larger than the artifact store's cap \(25000 bytes\)\)/);
  } finally {
    await h.close();
  }
});

test('disk full: the agent still gets the summary, told that the full result could not be kept', async () => {
  const full: ArtifactFiles = {
    ...nodeFiles,
    write() {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    },
  };
  const h = await harness({}, { files: full });
  try {
    const result = await stageRunner(h).run(context(h), textResult(bigText(6000)));
    assert.notEqual(result.isError, true);
    const summary = summaryOf(result);
    assert.ok(summary.keyFindings.length >= 3);
    assert.equal(summary.metadata.artifactId, undefined);
    assert.equal(metaOf(result).stored, false);
    assert.match(
      allText(result),
      /The full result could not be stored \(the disk is full\): call the tool again with narrower arguments/,
    );
    assert.equal((await h.intel.artifacts.usage()).count, 0);
    const report = await h.intel.tokenReport();
    assert.equal(report.notStored, 1);
  } finally {
    await h.close();
  }
});

test('an unwritable artifacts folder (a file in its place) degrades the same way', async () => {
  const h = await harness();
  try {
    fs.writeFileSync(path.join(h.dataDir, 'artifacts'), 'not a folder');
    const result = await stageRunner(h).run(context(h), textResult(bigText(6000)));
    assert.equal(summaryOf(result).metadata.artifactId, undefined);
    assert.match(
      allText(result),
      /The full result could not be stored \(the file could not be written \((EEXIST|ENOTDIR)\)\)/,
    );
  } finally {
    await h.close();
  }
});
