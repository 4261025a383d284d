import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, textOf } from '../helpers/gateway-process.js';
import { repoRoot, tempDir, writeSpell } from '../helpers/temp.js';

/**
 * Refusals reveal nothing: a real gateway over stdio with two real servers (server-memory, enabled;
 * the same server as `vaultkeeper`, disabled in settings). Whatever the agent asks (a request that
 * matches nothing, one that matches the disabled power's own words, an activation or a call by its
 * name, a tool search), no answer names the disabled power or repeats its description.
 */
test(
  'a disabled power appears in no answer: not_found, weak matches, retrieve_tools, activation and call errors',
  { timeout: 60_000 },
  async (t) => {
    const home = tempDir();
    t.after(() => home.cleanup());
    const spells = path.join(home.dir, 'spells');
    const memory = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
    const spell = (name: string, description: string, keywords: string) =>
      `name: ${name}\nversion: 1.0.0\ndescription: ${description}\nkeywords: ` +
      `[${keywords}]\nserver:\n  command: ${JSON.stringify(process.execPath)}\n  args: ` +
      `[${JSON.stringify(memory)}]\n  env:\n    MEMORY_FILE_PATH: ` +
      `${JSON.stringify(path.join(home.dir, `${name}.jsonl`))}\n`;
    writeSpell(
      spells,
      'notes',
      spell('notes', 'A knowledge graph of notes about people and projects.', 'notes, graph, people'),
    );
    writeSpell(
      spells,
      'vaultkeeper',
      spell('vaultkeeper', 'Zanzibar payroll ledger of every salary.', 'payroll, salary, ledger'),
    );
    fs.writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify({ powers: { disabled: ['vaultkeeper'] } }));
    const { client } = await connectStdio(
      ['--spells', spells, '--no-imports'],
      gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
    );
    t.after(() => client.close());
    const leaks = (text: string) => /vaultkeeper|zanzibar|payroll/i.test(text);

    const nothing = await client.callTool({
      name: 'resolve_intent',
      arguments: { query: 'order a pizza with extra cheese' },
    });
    assert.equal(payload(nothing).status, 'not_found', textOf(nothing));
    assert.ok(textOf(nothing).includes('notes'), 'the enabled power is listed (the check below could fail)');
    assert.ok(!leaks(textOf(nothing)), `not_found names the disabled power: ${textOf(nothing)}`);

    const ownWords = await client.callTool({
      name: 'resolve_intent',
      arguments: { query: 'show the zanzibar payroll ledger salary' },
    });
    assert.ok(!leaks(textOf(ownWords)), `an answer to the disabled power's own words names it: ${textOf(ownWords)}`);

    const search = await client.callTool({
      name: 'retrieve_tools',
      arguments: { query: 'read the payroll graph entities' },
    });
    assert.ok(!leaks(textOf(search)), textOf(search));

    for (const [name, args] of [
      ['activate_power', { name: 'vaultkeeper' }],
      ['activate_power', { name: 'nope' }],
      ['deactivate_power', { name: 'nope' }],
      [
        'call_tool_read',
        { name: 'vaultkeeper:read_graph', args: {}, intent: { operation_type: 'read', reason: 'probe' } },
      ],
      ['call_tool_read', { name: 'nope:read_graph', args: {}, intent: { operation_type: 'read', reason: 'probe' } }],
    ] as const) {
      const refused = await client.callTool({ name, arguments: args });
      assert.equal(refused.isError, true, `${name} ${JSON.stringify(args)}: ${textOf(refused)}`);
      assert.match(textOf(refused), /Unknown power/, `${name} ${JSON.stringify(args)}`);
      assert.ok(
        !leaks(textOf(refused).replace(`'${String(args.name).split(':')[0]}'`, '')),
        `${name} ${JSON.stringify(args)} names the disabled power: ${textOf(refused)}`,
      );
    }
  },
);
