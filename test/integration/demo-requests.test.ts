import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createRuntime, type Runtime } from '../../server/runtime.js';
import { gatewayEnv } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The scripted demo requests against the three bundled demo powers with their real tool lists
 * (each demo server started once as a child to list its tools), through the gateway's resolution
 * as `resolve_intent` runs it, with the shipped calibration and activation threshold.
 */
let home: { dir: string; cleanup: () => void };
let runtime: Runtime;

before(async () => {
  home = tempDir();
  runtime = await createRuntime({
    env: gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    demo: true,
    imports: false,
  });
  runtime.gateway.ports.discoverUnknownPowers();
  await runtime.parts.discovery.idle();
});

after(async () => {
  await runtime.close();
  home.cleanup();
});

test('the demo powers are indexed with their real tool lists', () => {
  for (const power of ['filesystem', 'memory', 'everything'])
    assert.ok(runtime.gateway.ports.toolsOf(power).length > 0, `${power} has its tools listed`);
});

test('"remember that Ada Lovelace wrote the first program" activates memory: a keyword match among unrelated powers', async () => {
  const outcome = await runtime.gateway.ports.resolve('remember that Ada Lovelace wrote the first program');
  assert.equal(outcome.tier, 'activated', JSON.stringify(outcome.ranked.slice(0, 2)));
  assert.deepEqual(
    outcome.candidates.map((c) => c.name),
    ['memory'],
  );
});

const EXPECTED: Array<[string, string]> = [
  ['read a file from my project', 'filesystem'],
  ['list the files in the docs folder', 'filesystem'],
  ['run the echo test', 'everything'],
  ['add two numbers', 'everything'],
  ['search my notes for the release date', 'memory'],
  ['show environment variables of the server', 'everything'],
];

test('each scripted demo request ranks its power first', async () => {
  for (const [query, power] of EXPECTED) {
    const outcome = await runtime.gateway.ports.resolve(query);
    assert.equal(outcome.ranked[0]?.name, power, `${query}: ${JSON.stringify(outcome.ranked.slice(0, 2))}`);
    assert.notEqual(outcome.tier, 'not_found', query);
  }
});

test('a request no demo power serves activates nothing', async () => {
  const outcome = await runtime.gateway.ports.resolve('book a flight to Lisbon');
  assert.equal(outcome.tier, 'not_found');
  assert.deepEqual(outcome.candidates, []);
});
