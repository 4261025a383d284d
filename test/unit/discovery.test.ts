import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Discovery } from '../../server/catalog/discovery.js';
import { partialCatalog } from '../../server/gateway/resolution.js';
import type { PowerDefinition } from '../../server/powers/types.js';

/** A remote power: discovery does not look for a command on PATH. */
const power = (name: string) =>
  ({
    name,
    server: { transport: 'http', url: `http://127.0.0.1:9/${name}`, headers: {} },
  }) as unknown as PowerDefinition;

/** A listing the test ends by hand, so the order of events is the test's, not a timer's. */
function gatedListing() {
  const gates = new Map<string, () => void>();
  let running = 0;
  let most = 0;
  const discover = (p: PowerDefinition) =>
    new Promise<void>((resolve) => {
      running += 1;
      most = Math.max(most, running);
      gates.set(p.name, () => {
        running -= 1;
        resolve();
      });
    });
  return { gates, discover, most: () => most };
}

test('powers are listed a bounded number at a time, all of them', async () => {
  const listing = gatedListing();
  const discovery = new Discovery(listing.discover, () => 3);
  for (let i = 0; i < 7; i += 1) discovery.enqueue(power(`p${i}`));
  await new Promise((r) => setImmediate(r));
  assert.equal(listing.gates.size, 3, 'three listings started at once');
  assert.deepEqual(discovery.pending().sort(), ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
  for (let round = 0; round < 7; round += 1) {
    const [name, open] = [...listing.gates][0];
    listing.gates.delete(name);
    open();
    await new Promise((r) => setImmediate(r));
  }
  await discovery.idle();
  assert.equal(listing.most(), 3, 'never more than the bound');
  assert.deepEqual(discovery.pending(), []);
});

test('settled waits for the listings up to its bound and names what is still pending', async (t) => {
  // The bound runs on node:test's fake clock: time passes only when the test ticks it.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const turn = () => new Promise((r) => setImmediate(r));
  const listing = gatedListing();
  const discovery = new Discovery(listing.discover, () => 4);
  discovery.enqueue(power('quick'));
  discovery.enqueue(power('slow'));
  await turn();
  const bounded = discovery.settled(60);
  listing.gates.get('quick')!();
  await turn();
  t.mock.timers.tick(60);
  assert.deepEqual(await bounded, ['slow'], 'the bound passed with slow still listing');
  let resolved = false;
  const unbounded = discovery.settled(5000).then((pending) => ((resolved = true), pending));
  listing.gates.get('slow')!();
  await turn();
  assert.equal(resolved, true, 'resolved when the last listing ended, not at the bound');
  assert.deepEqual(await unbounded, []);
  assert.deepEqual(await discovery.settled(5000), [], 'nothing pending: no wait');
});

test('an answer ranked on a partial catalog says so; a complete one says nothing', () => {
  assert.equal(partialCatalog([]), undefined);
  const partial = partialCatalog(['github', 'notion'])!;
  assert.deepEqual(partial.pending, ['github', 'notion']);
  assert.match(partial.note, /still listing: github, notion/);
});

test(
  'a launch definition is listed once in the background: asking again (every resolve does) lists it ' +
    'again only when its definition changed',
  async () => {
    const listed: string[] = [];
    const discovery = new Discovery(
      async (p) => void listed.push(`${p.name}@${p.serverHash}`),
      () => 2,
    );
    const one = { ...power('flaky'), serverHash: 'h1' } as PowerDefinition;
    discovery.enqueue(one);
    await discovery.idle();
    discovery.enqueue(one);
    discovery.enqueue({ ...one });
    await discovery.idle();
    assert.deepEqual(listed, ['flaky@h1']);
    discovery.enqueue({ ...one, serverHash: 'h2' } as PowerDefinition);
    await discovery.idle();
    assert.deepEqual(listed, ['flaky@h1', 'flaky@h2']);
  },
);

test('settled can wait for some powers only: it ends when those are listed, though others still are', async () => {
  const listing = gatedListing();
  const discovery = new Discovery(listing.discover, () => 4);
  discovery.enqueue(power('cached'));
  discovery.enqueue(power('unknown'));
  await new Promise((r) => setImmediate(r));
  const waiting = discovery.settled(60_000, (name) => name === 'unknown');
  listing.gates.get('unknown')!();
  assert.deepEqual(await waiting, []);
  assert.deepEqual(discovery.pending(), ['cached']);
  listing.gates.get('cached')!();
  await discovery.idle();
});
