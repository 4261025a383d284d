import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageError } from '../../server/cli/args.js';
import { parseToolTarget } from '../../server/cli/tool-target.js';

test(
  'a tools command names <power>:<tool>, or a whole power by --power only where it takes one; ' +
    "anything else is a usage error with the command's usage",
  () => {
    assert.deepEqual(parseToolTarget('memory:read_graph', 'other', 'usage: x'), {
      power: 'memory',
      tool: 'read_graph',
    });
    assert.deepEqual(parseToolTarget('db:ns:query', undefined, 'usage: x'), { power: 'db', tool: 'ns:query' });
    assert.deepEqual(parseToolTarget(undefined, 'memory', 'usage: x'), { power: 'memory' });
    for (const target of ['memory', 'memory:', ':read_graph']) {
      assert.throws(
        () => parseToolTarget(target, 'memory', 'usage: x'),
        (error: unknown) =>
          error instanceof UsageError &&
          error.message === `'${target}' does not name a tool: write <power>:<tool>.\nusage: x`,
      );
    }
    assert.throws(
      () => parseToolTarget(undefined, undefined, 'usage: y'),
      (error: unknown) => error instanceof UsageError && error.message === 'usage: y',
    );
  },
);
