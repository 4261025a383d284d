import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CALIBRATIONS } from '../../server/resolve/default-calibration.js';
import { HybridResolver } from '../../server/resolve/hybrid-resolver.js';
import { LexicalResolver } from '../../server/resolve/lexical-resolver.js';
import { decideTier, mayAutoActivate, MAX_INCIDENTAL } from '../../server/resolve/tiers.js';
import type { PowerDocument, PowerScore } from '../../server/resolve/types.js';

/** A command runner whose tools' prose mentions reasoning and logic in passing, and a plain power. */
const powers: PowerDocument[] = [
  {
    name: 'shell-runner',
    description: 'Run terminal commands and manage processes on this machine.',
    keywords: ['terminal', 'shell', 'process'],
    tools: [
      {
        name: 'start_process',
        description: 'Start a process. Use careful reasoning before running anything that changes state.',
        parameters: ['command', 'timeout_ms'],
      },
      {
        name: 'interact_with_process',
        description: 'Send input to a running process; its logic decides what comes back.',
        parameters: ['pid', 'input'],
      },
    ],
  },
  {
    name: 'weather',
    description: 'Meteorological forecasts for any city.',
    keywords: ['forecast', 'meteorology'],
    tools: [{ name: 'get_forecast', description: 'Forecast for a location', parameters: ['city', 'days'] }],
  },
  {
    name: 'calendar',
    description: 'Events and meetings in the user calendar.',
    keywords: ['calendar', 'meeting'],
    tools: [{ name: 'list_events', description: 'Events between two dates', parameters: ['year', 'month'] }],
  },
];

test("a match only on words of a power's tool descriptions is incidental; one on its name and description is not", () => {
  const resolver = new LexicalResolver();
  resolver.index(powers);
  const [top] = resolver.rankPowers('help me reason carefully about a tricky logic puzzle');
  assert.equal(top.name, 'shell-runner');
  assert.equal(top.incidental, 1, "reason and logic are only in its tools' prose");
  const [runner] = resolver.rankPowers('run a terminal command');
  assert.equal(runner.name, 'shell-runner');
  assert.equal(runner.incidental, 0);
});

test('however confident, a match mostly in passing is offered, never auto-activated', async () => {
  const resolver = new HybridResolver(DEFAULT_CALIBRATIONS);
  resolver.index(powers);
  const ranked = await resolver.rank('help me reason carefully about a tricky logic puzzle');
  const lifted = ranked.map((c, i) => (i === 0 ? { ...c, confidence: 0.999 } : c));
  const decision = decideTier(lifted, { activateThreshold: 0.9, multipleThreshold: 0.5, weakThreshold: 0.3 });
  assert.equal(decision.tier, 'multiple_matches');
  assert.equal(decision.candidates[0].name, 'shell-runner', 'still shown, so the agent can choose it');
});

test('a power that can write needs a match it declares itself by more than a read-only one does', () => {
  const between: Pick<PowerScore, 'incidental'> = { incidental: (MAX_INCIDENTAL.writes + MAX_INCIDENTAL.any) / 2 };
  assert.equal(mayAutoActivate(between), true);
  assert.equal(mayAutoActivate(between, { writes: true }), false);
  assert.equal(mayAutoActivate({ incidental: 0 }, { writes: true }), true);
});

test("at tool level, words that only match parameter names do not outrank a tool's name and description", () => {
  const resolver = new LexicalResolver();
  resolver.index(powers);
  const [top] = resolver.rankTools('show the events of this month');
  assert.equal(top.name, 'calendar:list_events');
  const weather = resolver.rankTools('days').find((c) => c.name === 'weather:get_forecast');
  assert.ok(weather, "still ranked, by its power's match on the parameter name");
  assert.deepEqual(weather.matchedTerms, [], 'a parameter name is no match of the tool itself');
  assert.equal(weather.incidental, 1, 'a parameter name alone is a match in passing');
});
