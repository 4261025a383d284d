import { FITTED_ACTIVATE_THRESHOLD } from '../../server/resolve/default-calibration.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CallPipeline, type CallContext } from '../../server/calls/pipeline.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import {
  DEFAULT_MAX_RESULT_MB,
  defaultSettings,
  loadSettingsFile,
  withOverrides,
} from '../../server/config/settings.js';
import { backoffDelay } from '../../server/upstream/restart-policy.js';
import { tempDir } from '../helpers/temp.js';

const context: CallContext = {
  power: 'p',
  tool: 't',
  calledAs: 'p__t',
  args: {},
  sessionId: 's',
  startedAt: 0,
  variant: 'direct',
  annotations: { source: 'none' },
};

test('pipeline stages run in order around the next stage', async () => {
  const trace: string[] = [];
  const pipeline = new CallPipeline([
    async (_c, next) => {
      trace.push('validate:before');
      const result = await next();
      trace.push('validate:after');
      return result;
    },
    async () => {
      trace.push('upstream');
      return { content: [{ type: 'text', text: 'ok' }] };
    },
  ]);
  const result = await pipeline.run(context);
  assert.deepEqual(trace, ['validate:before', 'upstream', 'validate:after']);
  assert.deepEqual(result.content, [{ type: 'text', text: 'ok' }]);
});

test('a pipeline without an answering stage rejects instead of hanging', async () => {
  await assert.rejects(new CallPipeline([]).run(context), /ended without an answer/);
});

test('settings: defaults are the documented ones; overrides merge deeply', () => {
  const defaults = defaultSettings();
  assert.equal(defaults.resolve.activateThreshold, FITTED_ACTIVATE_THRESHOLD);
  assert.equal(defaults.upstream.callTimeoutMs, 60_000);
  assert.equal(defaults.upstream.idle.turns, 5);
  assert.equal(defaults.upstream.idle.minutes, 10);
  const merged = withOverrides(defaults, { upstream: { callTimeoutMs: 1500 } });
  assert.equal(merged.upstream.callTimeoutMs, 1500);
  assert.equal(merged.upstream.idle.minutes, 10);
});

test("the largest stdio message a power may send is the SDK's own default", () => {
  assert.equal(DEFAULT_MAX_RESULT_MB * 1024 * 1024, STDIO_DEFAULT_MAX_BUFFER_SIZE);
  assert.equal(defaultSettings().upstream.maxResultMB, DEFAULT_MAX_RESULT_MB);
});

test('a bad settings file falls back to defaults and says which key and why', () => {
  const { dir, cleanup } = tempDir();
  try {
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, JSON.stringify({ resolve: { activateThreshold: 3 } }));
    const loaded = loadSettingsFile(file);
    assert.equal(loaded.settings.resolve.activateThreshold, FITTED_ACTIVATE_THRESHOLD);
    assert.match(loaded.problems[0], /resolve\.activateThreshold/);
    fs.writeFileSync(file, '{ not json');
    assert.match(loadSettingsFile(file).problems[0], /not valid JSON/);
    assert.deepEqual(loadSettingsFile(path.join(dir, 'missing.json')).problems, []);
  } finally {
    cleanup();
  }
});

test('restart backoff doubles and is capped', () => {
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => backoffDelay(n, 1000)),
    [1000, 2000, 4000, 8000],
  );
  assert.equal(backoffDelay(20, 1000), 30_000);
});
