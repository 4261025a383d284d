/**
 * The routing offer: every listed-twice server in one message with its figures, "Not Now" per server, a
 * server added later offered then.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offerKey, offerText, openOffers, reportIsBehind } from '../../client/adoption-offer.js';
import type { ListedTwiceInfo, PowerInfo, TokenReportInfo } from '../../protocol/records.js';

const FILE = '/ws/.vscode/mcp.json';
const entry = (power: string, tools: number, tokens: number): ListedTwiceInfo => ({ power, file: FILE, tools, tokens });
const report = (...listedTwice: ListedTwiceInfo[]) => ({ toolsList: { listedTwice } }) as unknown as TokenReportInfo;
const power = (name: string, tools: number, kind = 'vscode-mcp') =>
  ({
    name,
    source: { kind, file: FILE, readOnly: true },
    tools: Array.from({ length: tools }, (_, i) => ({ name: `t${i}` })),
  }) as unknown as PowerInfo;

test('one offer names every listed-twice server with its tools and tokens', () => {
  const three = report(entry('memory', 9, 2380), entry('filesystem', 14, 3100), entry('time', 6, 700));
  const text = offerText(openOffers(three, new Set()), () => '.vscode/mcp.json');
  assert.equal(
    text,
    'Grimoire: VS Code also offers "memory" (9 tools, 2380 tokens), "filesystem" (14 tools, ' +
      '3100 tokens) and "time" (6 tools, 700 tokens) to the agent directly (from .vscode/mcp.json): ' +
      'their tools are listed twice when Grimoire activates them, ' +
      'and on every request even when it does not.',
  );
  assert.match(
    offerText([entry('memory', 9, 2380)]),
    /offers "memory" \(9 tools, 2380 tokens\) to the agent directly \(from \/ws\/\.vscode\/mcp\.json\): its tools/,
  );
});

test('"Not Now" is per server: the others, and a server added later, are still offered', () => {
  const declined = new Set([offerKey(entry('memory', 9, 1))]);
  assert.deepEqual(
    openOffers(report(entry('memory', 9, 1), entry('time', 6, 1)), declined).map((e) => e.power),
    ['time'],
  );
  assert.deepEqual(
    openOffers(
      report(entry('memory', 9, 1), entry('time', 6, 1), entry('fetch', 6, 1)),
      new Set([...declined, offerKey(entry('time', 6, 1))]),
    ).map((e) => e.power),
    ['fetch'],
  );
  assert.notEqual(
    offerKey({ power: 'memory', file: '/other/.vscode/mcp.json' }),
    offerKey(entry('memory', 9, 1)),
    'the same name in another mcp.json is another server',
  );
});

test('tools listed in the background ask for a fresh report before any call', () => {
  assert.equal(reportIsBehind([power('memory', 9)], report(), new Set()), true, 'tools known, not in the report yet');
  assert.equal(
    reportIsBehind([power('memory', 0)], report(), new Set()),
    false,
    'tools not listed yet: nothing to count',
  );
  assert.equal(
    reportIsBehind([power('memory', 9)], report(entry('memory', 9, 1)), new Set()),
    false,
    'already in the report',
  );
  assert.equal(
    reportIsBehind([power('memory', 9, 'spell')], report(), new Set()),
    false,
    'a spell is not listed by VS Code',
  );
  assert.equal(
    reportIsBehind([power('memory', 9)], undefined, new Set([offerKey(entry('memory', 9, 1))])),
    false,
    'declined',
  );
});
