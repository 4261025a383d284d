import { test } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../helpers/gateway-process.js';
import { connectFixture, fixtureHome, fixtureSpell } from '../helpers/fixture-gateway.js';
import { writeSpell } from '../helpers/temp.js';

/**
 * A 6 MB single-line result through a real gateway is summarized, and calls to another power keep
 * answering meanwhile (one at a time, the whole time). Its time and the others' latency are
 * measured by `npm run bench:large-results`; this test holds only generous bounds.
 */
test('other calls keep answering while a 6 MB single-line result is summarized', { timeout: 180_000 }, async (t) => {
  const fixture = fixtureHome({ upstream: { maxResultMB: 8, callTimeoutMs: 120_000 } });
  for (const name of ['hostile', 'calm']) {
    writeSpell(
      fixture.spells,
      name,
      fixtureSpell(name, 'hostile-server', {
        description: 'A server for large and small results.',
        keywords: ['large', 'small', 'result'],
      }),
    );
  }
  const session = await connectFixture(fixture);
  t.after(async () => {
    await session.client.close();
    fixture.home.cleanup();
  });
  for (const name of ['hostile', 'calm'])
    await session.client.callTool({ name: 'activate_power', arguments: { name } });
  await session.client.callTool({ name: 'calm__pid', arguments: {} });

  let answer: string | undefined;
  const started = performance.now();
  const big = session.client
    .callTool({ name: 'hostile__bigline', arguments: { mb: 6, kind: 'json' } }, undefined, { timeout: 120_000 })
    .then((result) => (answer = textOf(result)));
  const others: number[] = [];
  while (answer === undefined) {
    const at = performance.now();
    await session.client.callTool({ name: 'calm__pid', arguments: {} });
    others.push(performance.now() - at);
  }
  await big;
  const took = performance.now() - started;
  assert.match(answer!, /artifact/i, 'summarized, with its artifact');
  assert.ok(answer!.length < 20_000, `a summary, not the 6 MB (${answer!.length} characters)`);
  // Before: 2 or 3 calls answered in 9 to 11 s, each waiting seconds for the summarizer. Now dozens.
  assert.ok(
    others.length >= Math.max(5, took / 1000),
    `${others.length} other calls answered in ${Math.round(took)} ms`,
  );
  others.sort((a, b) => a - b);
  assert.ok(
    others[Math.floor(others.length / 2)]! < 1000,
    `their median ${Math.round(others[Math.floor(others.length / 2)]!)} ms`,
  );
});
