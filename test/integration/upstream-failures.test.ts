import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, isAlive, payload, textOf, waitFor } from '../helpers/gateway-process.js';
import { cliPath, fixtureServer, tempDir, unstableSpell, writeSpell } from '../helpers/temp.js';

/** A real child server of ours that crashes, hangs and reports its pid, behind a real gateway process. */
async function gatewayWithUnstable(extraArgs: string[] = [], serverArgs: string[] = []) {
  const home = tempDir();
  const spells = path.join(home.dir, 'spells');
  writeSpell(spells, 'unstable', unstableSpell('unstable', serverArgs));
  const env = gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') });
  const session = { ...(await connectStdio(['--spells', spells, '--no-imports', ...extraArgs], env)), env };
  const activated = payload(await session.client.callTool({ name: 'activate_power', arguments: { name: 'unstable' } }));
  assert.equal(activated.status, 'activated', JSON.stringify(activated));
  return { home, session };
}

async function childPid(client: Awaited<ReturnType<typeof connectStdio>>['client']): Promise<number> {
  return Number(textOf(await client.callTool({ name: 'unstable__pid', arguments: {} })));
}

test('a child that crashes mid-call fails that call clearly, is restarted, and serves again', async () => {
  const { home, session } = await gatewayWithUnstable();
  try {
    const firstPid = await childPid(session.client);
    const crashed = await session.client.callTool({ name: 'unstable__crash', arguments: {} });
    assert.equal(crashed.isError, true);
    assert.match(
      payload(crashed).error,
      /Power 'unstable' crashed.*during the call to 'crash'.*restarts it automatically/,
    );
    let secondPid = 0;
    await waitFor(
      async () => {
        const result = await session.client.callTool({ name: 'unstable__pid', arguments: {} });
        if (result.isError) return false;
        secondPid = Number(textOf(result));
        return true;
      },
      15_000,
      'the restarted child to answer',
    );
    assert.notEqual(secondPid, firstPid, 'a new process serves after the restart');
    assert.ok(
      session.logMessages.some((m) => /Power 'unstable' crashed/.test(m)),
      `client told of the crash: ${session.logMessages}`,
    );
    const events = JSON.parse(
      execFileSync(process.execPath, [cliPath, 'events', '--json'], { env: session.env, encoding: 'utf8' }),
    ).events;
    const kinds = events.filter((e: { power: string }) => e.power === 'unstable').map((e: { kind: string }) => e.kind);
    assert.ok(kinds.includes('power.crashed'), `events read by another process while the gateway runs: ${kinds}`);
    assert.ok(
      kinds.lastIndexOf('power.active') > kinds.indexOf('power.crashed'),
      'the restart is recorded after the crash',
    );
    const echo = await session.client.callTool({ name: 'unstable__echo', arguments: { text: 'still here' } });
    assert.equal(textOf(echo), 'echo: still here');
  } finally {
    await session.client.close();
    home.cleanup();
  }
});

test('a hanging call times out with a clear error while other calls keep working', async () => {
  const { home, session } = await gatewayWithUnstable(['--call-timeout', '1500']);
  try {
    const started = Date.now();
    const hanging = session.client.callTool({ name: 'unstable__hang', arguments: {} });
    const echo = await session.client.callTool({ name: 'unstable__echo', arguments: { text: 'meanwhile' } });
    assert.equal(textOf(echo), 'echo: meanwhile', 'another call answers while one hangs');
    const result = await hanging;
    const elapsed = Date.now() - started;
    assert.equal(result.isError, true);
    assert.match(payload(result).error, /did not answer 'hang' within 2 s|did not answer 'hang' within 1 s/);
    assert.ok(elapsed >= 1400 && elapsed < 10_000, `timed out after ${elapsed} ms`);
    const again = await session.client.callTool({ name: 'unstable__echo', arguments: { text: 'after' } });
    assert.equal(textOf(again), 'echo: after', 'the power keeps serving after a timeout');
  } finally {
    await session.client.close();
    home.cleanup();
  }
});

for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
  test(`no orphans: children stop when the gateway gets ${signal}, even one that ignores a closed stdin`, async () => {
    const { home, session } = await gatewayWithUnstable([], ['--stubborn']);
    try {
      const pid = await childPid(session.client);
      assert.ok(isAlive(pid));
      assert.ok(session.pid);
      process.kill(session.pid, signal);
      await waitFor(() => !isAlive(pid), 10_000, `child ${pid} to exit after the gateway got ${signal}`);
    } finally {
      await session.client.close().catch(() => undefined);
      home.cleanup();
    }
  });
}

test('a malformed spell next to good ones: the good ones load, the error names file and field', async () => {
  const home = tempDir();
  const spells = path.join(home.dir, 'spells');
  writeSpell(spells, 'unstable', unstableSpell());
  writeSpell(spells, 'broken', 'name: Broken Name\nversion: 1\ndescription: x\nkeywords: [one]\nserver: {}\n');
  fs.writeFileSync(path.join(spells, 'garbage.spell.yaml'), 'name: [unclosed\n  - : :\n');
  const session = await connectStdio(
    ['--spells', spells, '--no-imports'],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
  );
  try {
    const activated = payload(
      await session.client.callTool({ name: 'activate_power', arguments: { name: 'unstable' } }),
    );
    assert.equal(activated.status, 'activated');
    const stderr = session.stderr.join('');
    assert.match(stderr, /broken\.spell\.yaml/);
    assert.match(stderr, /keywords/);
    assert.match(stderr, /garbage\.spell\.yaml/);
  } finally {
    await session.client.close();
    home.cleanup();
  }
});

test('a power answering malformed tools/call results: each call fails clearly, the power keeps serving', async () => {
  const home = tempDir();
  const spells = path.join(home.dir, 'spells');
  writeSpell(
    spells,
    'malformed',
    `name: malformed\nversion: 1.0.0\ndescription: A test server whose tools answer malformed ` +
      `results.\nkeywords: [malformed, results, test]\nsteering: Test guidance.\nserver:\n  command: ` +
      `${JSON.stringify(process.execPath)}\n  args: ` +
      `${JSON.stringify([fixtureServer('malformed-result-server')])}\n`,
  );
  const session = await connectStdio(
    ['--spells', spells, '--no-imports'],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
  );
  try {
    const activated = payload(
      await session.client.callTool({ name: 'activate_power', arguments: { name: 'malformed' } }),
    );
    assert.equal(activated.status, 'activated', JSON.stringify(activated));
    const expected: Record<string, RegExp> = {
      structured_string: /structuredContent.*expected record/s,
      content_not_array: /content.*expected array/s,
      bad_block: /invalid_union.*"content",\s*0/s,
      is_error_string: /isError.*expected boolean/s,
      image_without_data: /expected string.*"data".*"content",\s*0/s,
    };
    for (const [tool, detail] of Object.entries(expected)) {
      const result = await session.client.callTool({ name: `malformed__${tool}`, arguments: {} });
      assert.equal(result.isError, true, `${tool}: ${JSON.stringify(result)}`);
      const error = payload(result).error as string;
      assert.match(error, /Call to 'malformed:/, tool);
      assert.match(error, detail, tool);
    }
    assert.equal(textOf(await session.client.callTool({ name: 'malformed__good', arguments: {} })), 'fine');
    // Structured content is checked against the output schema the power's own listing gave the tool.
    const offSchema = await session.client.callTool({ name: 'malformed__off_schema', arguments: {} });
    assert.equal(offSchema.isError, true, JSON.stringify(offSchema));
    assert.match(payload(offSchema).error as string, /'malformed:off_schema'.*does not match the tool's output schema/);
    assert.deepEqual(
      (await session.client.callTool({ name: 'malformed__on_schema', arguments: {} })).structuredContent,
      { count: 3 },
    );
  } finally {
    await session.client.close();
    home.cleanup();
  }
});
