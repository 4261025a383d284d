import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connectStdio, gatewayEnv, payload, textOf } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/temp.js';

async function gatewayWith(settings: object) {
  const home = tempDir();
  fs.writeFileSync(path.join(home.dir, 'settings.json'), JSON.stringify(settings));
  const session = await connectStdio(
    ['--demo', '--no-imports'],
    gatewayEnv({ home: home.dir, data: path.join(home.dir, 'data') }),
  );
  return { home, session };
}

test("exposure 'call-tools': activation adds nothing to the list and says how to call each tool", async () => {
  const { home, session } = await gatewayWith({ exposure: { mode: 'call-tools' } });
  try {
    const before = (await session.client.listTools()).tools.length;
    const activated = payload(
      await session.client.callTool({ name: 'activate_power', arguments: { name: 'everything' } }),
    );
    assert.equal(activated.best_tools, undefined, 'nothing was listed');
    const lines: string[] = activated.call_with_tools;
    assert.equal(lines.length, 13, 'every tool of the power, one line each');
    const echo = lines.find((line) => line.startsWith('everything:echo via '));
    assert.match(echo ?? '', /^everything:echo via call_tool_read, args \{message: string\}/);
    assert.equal((await session.client.listTools()).tools.length, before, 'no list_changed flood');
    const result = await session.client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'everything:echo', args: { message: 'via variant' }, intent: { operation_type: 'read' } },
    });
    assert.match(textOf(result), /via variant/);
  } finally {
    await session.client.close();
    home.cleanup();
  }
});

test('the exposure cap and blocked tools: the rest are offered through call_with', async () => {
  const { home, session } = await gatewayWith({
    exposure: { maxTools: 3 },
    tools: { blocked: ['everything:get-env'] },
  });
  try {
    const activated = payload(
      await session.client.callTool({ name: 'activate_power', arguments: { name: 'everything' } }),
    );
    const exposed = (await session.client.listTools()).tools.filter((t) => t.name.startsWith('everything__'));
    assert.equal(exposed.length, 3);
    assert.equal(activated.tools, undefined, 'the listed tools are not repeated in the answer');
    const offered = (activated.call_with_tools as string[]).map(
      (line) => `everything:${line.slice('everything:'.length).split(' ')[0]}`,
    );
    assert.equal(offered.length, 13 - 3 - 1, 'every tool neither listed nor blocked is offered once');
    assert.ok(
      !exposed.some((t) => offered.includes(`everything:${t.name.slice('everything__'.length)}`)),
      'a listed tool is not offered again',
    );
    assert.ok(
      !offered.includes('everything:get-env') && !exposed.some((t) => t.name === 'everything__get-env'),
      'blocked tools are neither exposed nor offered',
    );
    const blocked = await session.client.callTool({
      name: 'call_tool_read',
      arguments: { name: 'everything:get-env', args: {}, intent: { operation_type: 'read' } },
    });
    assert.match(payload(blocked).error, /blocked in settings/);
  } finally {
    await session.client.close();
    home.cleanup();
  }
});
