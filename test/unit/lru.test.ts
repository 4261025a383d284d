import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Lru } from '../../server/util/lru.js';

test('Lru keeps at most its capacity: a get or set refreshes an entry, has does not, the least recent goes', () => {
  const map = new Lru<string, number>(3);
  map.set('a', 1);
  map.set('b', 2);
  map.set('c', 3);
  assert.equal(map.get('a'), 1, 'a is now the most recent');
  assert.equal(map.has('b'), true, 'has() does not make b recent');
  map.set('d', 4);
  assert.equal(map.size, 3);
  assert.equal(map.has('b'), false, 'b, the least recent, went');
  assert.deepEqual(
    ['a', 'c', 'd'].map((k) => map.get(k)),
    [1, 3, 4],
  );
  map.set('c', 30);
  map.set('e', 5);
  assert.equal(map.has('a'), false, 'a was the least recent after c and d were read and c written');
  assert.equal(map.get('c'), 30);
  assert.equal(map.delete('c'), true);
  assert.equal(map.get('c'), undefined);
  assert.equal(map.size, 2);
});

test('an Lru of sessions stays at its cap however many sessions come and go', () => {
  const map = new Lru<string, string[]>(100);
  for (let i = 0; i < 100_000; i++) map.set(`session-${i}`, [`tool-${i}`]);
  assert.equal(map.size, 100);
  assert.deepEqual(map.get('session-99999'), ['tool-99999']);
  assert.equal(map.has('session-0'), false);
});
