/**
 * Token figures counted per model request (protocol/request-model.ts): each call is
 * one request carrying the tool list of that moment; direct exposure carries every configured
 * power's tools on each of its requests. Real tokenizer (o200k_base), real store.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Tool } from '../../server/util/mcp-types.js';
import {
  directTokens,
  listedTwiceText,
  requestTokens,
  sessionsVerdict,
  toolListVerdict,
} from '../../protocol/request-model.js';
import { SessionReadLedger } from '../../server/intel/accounting/session-reads.js';
import { tokenReport } from '../../server/intel/accounting/token-report.js';
import { InlineTokenizer } from '../../server/intel/tokens/tokenizer.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

const temp = tempDir('grimoire-request-model-');
const stores: Store[] = [];
after(async () => {
  for (const store of stores) await store.close();
  temp.cleanup();
});

const tokenizer = new InlineTokenizer();
const tokens = async (value: unknown) =>
  (await tokenizer.count([typeof value === 'string' ? value : JSON.stringify(value)]))[0]!;
const tools = (n: number, prefix: string): Tool[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `${prefix}_${i}`,
    description: `Does thing ${i} of ${prefix}, described at some length.`,
    inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
  }));
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

async function openStore(name: string): Promise<Store> {
  const store = await Store.open({ dataDir: path.join(temp.dir, name), fsync: false });
  stores.push(store);
  return store;
}

test('the model: one request per call, each carrying its list; direct requests carry the configured list', () => {
  assert.deepEqual(requestTokens([100, 100, 300], 50), {
    requests: 3,
    toolsListTokens: 500,
    readTokens: 50,
    tokens: 550,
  });
  assert.deepEqual(directTokens(2, 900, 70), { requests: 2, toolsListTokens: 1800, readTokens: 70, tokens: 1870 });
  assert.deepEqual(directTokens(0, 900, 0).tokens, 0, 'no call, no request');
});

test(
  "a session's requests carry the list served before each call; " +
    "direct exposure carries the configured powers' tools on each result",
  async () => {
    const ledger = new SessionReadLedger(tokenizer, () => 1);
    const small = tools(5, 'gw');
    const grown = [...small, ...tools(8, 'memory')];
    ledger.listed('s', small);
    ledger.answered('s', text('{"status":"activated","power":"memory"}'));
    ledger.listed('s', grown);
    ledger.delivered('s', text('a result'), text('a result'));
    ledger.delivered('s', text('another, longer result '.repeat(10)), text('its summary'));
    const [row] = await ledger.all();
    assert.equal(row!.requests, 3);
    assert.equal(row!.toolsLists, 2);
    assert.equal(
      row!.requestListTokens,
      (await tokens(small)) + 2 * (await tokens(grown)),
      'the answer carried the small list, both results the grown one',
    );

    const configured = [
      { power: 'memory', tools: tools(8, 'memory'), listed: true },
      { power: 'files', tools: tools(30, 'files'), listed: true },
    ];
    const report = await tokenReport(
      await openStore('session'),
      tokenizer,
      { gateway: grown, powers: configured },
      { count: 0, bytes: 0, maxBytes: 1, ttlMinutes: 1 },
      [row!],
    );
    const session = report.sessions.rows[0]!;
    const configuredList = await tokens(configured.flatMap((p) => p.tools));
    assert.equal(report.toolsList.configured.tokens, configuredList);
    assert.deepEqual(session.direct, {
      requests: 2,
      toolsListTokens: 2 * configuredList,
      resultTokens: row!.rawTokens,
      tokens: 2 * configuredList + row!.rawTokens,
    });
    assert.equal(
      session.gateway.tokens,
      session.gateway.toolsListTokens + session.gateway.answerTokens + session.gateway.resultTokens,
    );
    assert.equal(report.sessions.totals.extraRequests, 1, 'the activation is a request direct exposure does not make');
    assert.equal(report.sessions.totals.savedTokens, session.direct.tokens - session.gateway.tokens);
  },
);

test('with few tools configured Grimoire costs more, and the sentences say so and why', async () => {
  const gateway = tools(12, 'gw');
  const configured = [
    { power: 'notes', tools: tools(3, 'notes'), listed: true },
    { power: 'fresh', tools: [], listed: false },
  ];
  const ledger = new SessionReadLedger(tokenizer, () => 1);
  ledger.listed('s', gateway);
  ledger.answered('s', text('{"status":"activated"}'));
  ledger.delivered('s', text('ok'), text('ok'));
  const report = await tokenReport(
    await openStore('more'),
    tokenizer,
    { gateway, powers: configured },
    { count: 0, bytes: 0, maxBytes: 1, ttlMinutes: 1 },
    await ledger.all(),
  );
  assert.ok(report.toolsList.savedTokens < 0, JSON.stringify(report.toolsList));
  assert.ok(report.toolsList.reduction < 0);
  assert.deepEqual(
    [report.toolsList.configured.powers, report.toolsList.configured.unlisted, report.toolsList.configured.tools],
    [2, 1, 3],
  );
  const list = toolListVerdict(report.toolsList);
  assert.match(
    list,
    new RegExp(
      `^Each model request carries ${-report.toolsList.savedTokens} tokens more through Grimoire \\(its 12 ` +
        `tools\\) than the 3 tools of the 2 configured powers listed directly: `,
    ),
  );
  assert.match(list, /1 configured power never listed its tools: counted as none/);
  assert.ok(report.sessions.totals.savedTokens < 0);
  const sessions = sessionsVerdict(report.sessions.totals, report.toolsList.configured.tokens);
  assert.match(
    sessions,
    new RegExp(
      `^In all, the agents read ${-report.sessions.totals.savedTokens} tokens more through Grimoire than ` +
        `directly: its 1 call to its own tools .* is a model request that direct exposure does not make`,
    ),
  );

  const many = [{ power: 'big', tools: tools(60, 'big'), listed: true }];
  const fewer = await tokenReport(
    await openStore('fewer'),
    tokenizer,
    { gateway, powers: many },
    { count: 0, bytes: 0, maxBytes: 1, ttlMinutes: 1 },
  );
  assert.ok(fewer.toolsList.savedTokens > 0);
  assert.match(
    toolListVerdict(fewer.toolsList),
    new RegExp(
      /^Each model request carries \d+ tokens \(\d+%\) fewer through Grimoire \(its 12 tools\) than /.source +
        /the 60 tools of the 1 configured power listed directly\.$/.source,
    ),
  );
});

test("a power VS Code also offers from its mcp.json is named with its tools' tokens, listed twice", async () => {
  const notes = tools(6, 'notes');
  const report = await tokenReport(
    await openStore('twice'),
    tokenizer,
    {
      gateway: tools(5, 'gw'),
      powers: [
        { power: 'notes', tools: notes, listed: true, direct: '/w/.vscode/mcp.json' },
        { power: 'spelled', tools: tools(4, 's'), listed: true },
        { power: 'unseen', tools: [], listed: false, direct: '/w/.vscode/mcp.json' },
      ],
    },
    { count: 0, bytes: 0, maxBytes: 1, ttlMinutes: 1 },
  );
  assert.deepEqual(report.toolsList.listedTwice, [
    { power: 'notes', file: '/w/.vscode/mcp.json', tools: 6, tokens: await tokens(notes) },
  ]);
  assert.match(
    listedTwiceText(report.toolsList.listedTwice[0]!),
    new RegExp(
      /^VS Code also offers "notes" to its agent directly \(from \/w\/\.vscode\/mcp\.json\): its 6 /.source +
        /tools \(\d+ tokens\) are on every request besides Grimoire's list\./.source,
    ),
  );
});

test("what VS Code lists directly besides Grimoire's list is on Grimoire's side of every figure, in VS Code sessions only", async () => {
  const notes = tools(6, 'notes');
  const files = tools(30, 'files');
  const gateway = tools(5, 'gw');
  const ledger = new SessionReadLedger(tokenizer, () => 1);
  ledger.listed('vscode', gateway, true);
  ledger.delivered('vscode', text('a result'), text('a result'));
  ledger.listed('cli', gateway, false);
  ledger.delivered('cli', text('a result'), text('a result'));
  const powers = [
    { power: 'notes', tools: notes, listed: true, direct: '/w/.vscode/mcp.json' },
    { power: 'files', tools: files, listed: true },
  ];
  const report = await tokenReport(
    await openStore('also-direct'),
    tokenizer,
    { gateway, powers },
    { count: 0, bytes: 0, maxBytes: 1, ttlMinutes: 1 },
    await ledger.all(),
  );
  const t = report.toolsList;
  assert.deepEqual(t.alsoDirect, { tools: 6, tokens: await tokens(notes) });
  assert.equal(t.savedTokens, t.configured.tokens - t.gateway.tokens - t.alsoDirect.tokens);
  assert.match(
    toolListVerdict(t),
    new RegExp(
      `^Each model request carries ${t.savedTokens} tokens \\(\\d+%\\) fewer through Grimoire \\(its 5 ` +
        `tools plus the 6 tools \\(${t.alsoDirect.tokens} tokens\\) VS Code lists directly besides it\\) ` +
        `than the 36 tools`,
    ),
  );
  const vscode = report.sessions.rows.find((row) => row.session === 'vscode')!;
  const cli = report.sessions.rows.find((row) => row.session === 'cli')!;
  assert.equal(
    vscode.gateway.alsoDirectTokens,
    t.alsoDirect.tokens,
    "VS Code's one request carried notes' tools besides Grimoire's list",
  );
  assert.equal(cli.gateway.alsoDirectTokens, 0, 'another client gets only the gateway');
  assert.equal(vscode.gateway.tokens - cli.gateway.tokens, t.alsoDirect.tokens);
  assert.equal(report.sessions.totals.alsoDirectTokens, t.alsoDirect.tokens);
  assert.match(
    sessionsVerdict(report.sessions.totals, t.configured.tokens),
    new RegExp(
      `counting the ${t.alsoDirect.tokens} tokens of the tools VS Code listed directly besides Grimoire's on the same requests`,
    ),
  );
});
