/** `grimoire bench --level tool` on the sets that ship with the repository, as a user runs it from a clone. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cliPath } from '../helpers/temp.js';

test(
  'bench --level tool measures every set with tool ground truth, ' +
    'our requests over the 14 real servers included (as spells and as an import), ' +
    'and their one trip holds',
  async () => {
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [cliPath, 'bench', '--level', 'tool', '--json'],
        { env: { PATH: process.env.PATH ?? '', GRIMOIRE_OFFLINE: '1' }, maxBuffer: 64 * 1024 * 1024 },
        (error, out, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(out)),
      ),
    );
    const sets = JSON.parse(stdout) as Record<string, { n: number; one_trip: number; answer_tokens_p50: number }>;
    assert.deepEqual(Object.keys(sets).sort(), [
      'metatool-multi',
      'metatool-single',
      'real-servers',
      'real-servers-imported',
    ]);
    // One trip for at least .80 of the real-server requests, imported or not; answers of at most 600 tokens at the median.
    for (const name of ['real-servers', 'real-servers-imported']) {
      assert.equal(sets[name]!.n, 87);
      assert.ok(sets[name]!.one_trip >= 0.8, `${name}: one_trip ${sets[name]!.one_trip}`);
    }
    for (const [name, set] of Object.entries(sets))
      assert.ok(set.answer_tokens_p50 <= 600, `${name}: ${set.answer_tokens_p50} tokens`);
  },
);
