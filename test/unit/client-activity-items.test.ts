import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { activityContext, activityItem, ago } from '../../client/activity-items.js';
import { chooseModel } from '../../client/model-choice.js';
import type { ActivityInfo } from '../../protocol/records.js';

const now = Date.parse('2026-11-22T10:00:00Z');
const call = (overrides: Partial<ActivityInfo> = {}): ActivityInfo => ({
  id: 'c1',
  at: now - 90_000,
  session: 'sess',
  power: 'memory',
  tool: 'read_graph',
  variant: 'read',
  operationType: 'read',
  decision: 'allowed',
  status: 'ok',
  latencyMs: 12,
  resultBytes: 321,
  audit: false,
  rating: 0,
  ...overrides,
});

test('an Activity row: the tool, then power, intent, status, latency; the icon by status', () => {
  const item = activityItem(call(), now);
  assert.equal(item.label, 'read_graph');
  assert.equal(item.description, 'memory · read · ok · 12 ms');
  assert.deepEqual(item.icon, { id: 'pass', color: 'testing.iconPassed' });
  assert.equal(item.contextValue, 'grimoire.activity.unrated');
  assert.equal(item.id, 'activity:c1');
  assert.match(
    item.tooltip,
    /memory:read_graph \(read\)\n.*\(2 min ago\)\nStatus: ok · decision: allowed\nLatency: 12 ms · result: 321 bytes/,
  );
});

test('audit-flagged, warned, rejected, suggested and rated calls each show so', () => {
  const audited = activityItem(
    call({
      audit: true,
      status: 'error',
      error: 'boom',
      tool: 'delete_entities',
      variant: 'destructive',
      operationType: 'destructive',
      latencyMs: 2300,
    }),
    now,
  );
  assert.equal(audited.description, '⚑ audit · memory · destructive · error · 2.3 s');
  assert.deepEqual(audited.icon, { id: 'error', color: 'errorForeground' });
  assert.match(audited.tooltip, /Error: boom[\s\S]*Audit: the spell flags this tool/);
  assert.equal(audited.contextValue, 'grimoire.activity.unrated.audit');

  const warned = activityItem(
    call({ decision: 'warned', decisionReason: 'the server says it writes', variant: 'write', operationType: 'write' }),
    now,
  );
  assert.equal(warned.description, 'memory · write · ok · warned · 12 ms');
  assert.equal(warned.icon.id, 'warning');
  assert.match(warned.tooltip, /decision: warned \(the server says it writes\)/);

  const rejected = activityItem(call({ status: 'rejected', decision: 'rejected', operationType: 'write' }), now);
  assert.equal(rejected.description, 'memory · read (declared write) · rejected · 12 ms');
  assert.equal(rejected.icon.id, 'circle-slash');

  assert.equal(
    activityItem(call({ status: 'suggested', variant: 'direct', operationType: undefined }), now).description,
    'memory · direct · prerequisite suggested · 12 ms',
  );

  const up = activityItem(call({ rating: 1 }), now);
  assert.equal(up.description, 'memory · read · ok · 12 ms · rated up');
  assert.equal(up.contextValue, 'grimoire.activity.rated-up');
  assert.equal(activityContext({ rating: -1, audit: true }), 'grimoire.activity.rated-down.audit');
});

const repoRoot = path.resolve(__dirname, '..', '..', '..');

test('the inline thumbs in package.json follow the rows: one of up / remove-up and one of down / remove-down per rating', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { menus: Record<string, Array<{ command: string; when?: string; group?: string }>> };
  };
  const inline = manifest.contributes.menus['view/item/context'].filter(
    (m) => m.when?.includes('view == grimoire.activity') && m.group?.startsWith('inline'),
  );
  const shown = (contextValue: string) =>
    inline
      .filter((m) => {
        const pattern = /viewItem =~ \/(.+)\/$/.exec(m.when!)![1];
        return new RegExp(pattern).test(contextValue);
      })
      .map((m) => m.command)
      .sort();
  assert.deepEqual(shown('grimoire.activity.unrated'), ['grimoire.rateActivityDown', 'grimoire.rateActivityUp']);
  assert.deepEqual(shown('grimoire.activity.rated-up.audit'), [
    'grimoire.rateActivityDown',
    'grimoire.unrateActivityUp',
  ]);
  assert.deepEqual(shown('grimoire.activity.rated-down'), ['grimoire.rateActivityUp', 'grimoire.unrateActivityDown']);
});

test('times ago, and the language model chosen for summaries', () => {
  assert.deepEqual(
    [ago(now - 5_000, now), ago(now - 30 * 60_000, now), ago(now - 5 * 3600_000, now), ago(now - 3 * 86400_000, now)],
    ['5 s ago', '30 min ago', '5 h ago', '3 days ago'],
  );
  const models = [
    { vendor: 'other', family: 'tiny-mini', name: 'Other mini' },
    { vendor: 'copilot', family: 'gpt-4.1', name: 'GPT-4.1' },
    { vendor: 'copilot', family: 'gpt-4o-mini', name: 'GPT-4o mini' },
  ];
  assert.equal(chooseModel(models)?.name, 'GPT-4o mini');
  assert.equal(chooseModel(models.slice(0, 2))?.name, 'GPT-4.1', "Copilot's before another vendor's");
  assert.equal(chooseModel([]), undefined);
});
