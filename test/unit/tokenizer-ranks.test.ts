import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import { loadRanks, RANKS_FILE } from '../../server/intel/tokens/tokenizer-core.js';
import { tempDir } from '../helpers/temp.js';

test('the ranks come from the shared file beside the bundle when it is there, else from the package; both encode alike', () => {
  const { dir, cleanup } = tempDir();
  try {
    const fromPackage = loadRanks(dir);
    assert.equal(typeof fromPackage.bpe_ranks, 'string');
    fs.writeFileSync(
      path.join(dir, RANKS_FILE),
      JSON.stringify({ ...fromPackage, special_tokens: { ...fromPackage.special_tokens, '<|shared-file|>': 999_999 } }),
    );
    const fromFile = loadRanks(dir);
    assert.equal(fromFile.special_tokens['<|shared-file|>'], 999_999, 'the shared file was read');
    const text = 'Grimoire counts tokens once: héllo, wörld! 12345';
    assert.deepEqual(new Tiktoken(fromFile).encode(text), new Tiktoken(fromPackage).encode(text));
  } finally {
    cleanup();
  }
});
