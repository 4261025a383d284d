import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import type { CallToolResult } from '../../server/util/mcp-types.js';
import {
  GATEWAY_TOOL_DECLARATIONS,
  GATEWAY_TOOLS,
  isGatewayToolName,
  type GatewayToolName,
} from '../../server/gateway/gateway-tools.js';
import { describeArgsError, type ToolDeclaration } from '../../server/util/tool-args.js';
import { variantOf } from '../../server/calls/intent.js';
import { handleGatewayTool, type GatewayToolPorts } from '../../server/gateway/gateway-tool-handlers.js';

// Every table below comes from the declarations (GATEWAY_TOOL_DECLARATIONS): a new gateway tool is tested
// here with its own schema and example, and fails here if its handler parses anything else.

const declared = new Map(GATEWAY_TOOL_DECLARATIONS.map((declaration) => [declaration.tool.name, declaration]));
const declarationOf = (name: string): ToolDeclaration => declared.get(name as GatewayToolName)!;

/**
 * A fake for the handlers' ports (the handlers' argument parsing is what is tested): it records being
 * used, which means the handler went past parsing, then throws. Only the bookkeeping every answer goes
 * through answers: whose stored results a session sees, the clock, counting the answer and the turn.
 */
let touched = false;
const BOOKKEEPING = {
  intel: { ownerOf: () => '', now: () => Date.now(), reads: { answered: () => undefined } },
  manager: { noteTurn: () => undefined },
};
const untouchable = <T extends object>(allowed: object = BOOKKEEPING): T =>
  new Proxy({} as T, {
    get: (_, key) => {
      const value = (allowed as Record<PropertyKey, unknown>)[key];
      if (typeof value === 'function') return value;
      if (value !== null && typeof value === 'object') return untouchable(value);
      touched = true;
      throw new Error('past argument parsing');
    },
  });

async function callHandler(name: string, args: Record<string, unknown>): Promise<{ touched: boolean; error?: string }> {
  touched = false;
  let answer: CallToolResult;
  try {
    answer = await handleGatewayTool(untouchable<GatewayToolPorts>(), name as GatewayToolName, args, {
      sessionId: 'schema-test',
    });
  } catch {
    return { touched };
  }
  const text = answer.isError ? answer.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : undefined;
  return { touched, error: text === undefined ? undefined : (JSON.parse(text) as { error: string }).error };
}

/** Inputs that break one property at a time, plus no arguments at all. */
function brokenInputs(name: string, schema: Record<string, unknown>): Array<Record<string, unknown>> {
  const properties = schema.properties as Record<string, { type?: string }>;
  const wrong: Record<string, unknown> = {
    string: 42,
    integer: 1.5,
    number: 'many',
    boolean: 'yes',
    object: 'text',
    array: 'text',
  };
  const inputs: Array<Record<string, unknown>> = [{}];
  for (const [key, property] of Object.entries(properties)) {
    inputs.push({ ...declarationOf(name).example, [key]: wrong[property.type ?? ''] ?? Symbol('unrepresentable') });
  }
  if (variantOf(name))
    inputs.push(
      { name: declarationOf(name).example.name },
      { ...declarationOf(name).example, intent: {} },
      { ...declarationOf(name).example, intent: { operation_type: 'delete' } },
    );
  return inputs;
}

test('each declared name once, and the guard knows exactly those names', () => {
  const names = GATEWAY_TOOL_DECLARATIONS.map((declaration) => declaration.tool.name);
  assert.equal(new Set(names).size, names.length);
  for (const name of names) assert.equal(isGatewayToolName(name), true, name);
  for (const name of ['call_tool', 'filesystem__read_text_file', 'resolve_intent ', ''])
    assert.equal(isGatewayToolName(name), false);
});

test('a name the gateway does not declare is an error, touching nothing', async () => {
  for (const name of ['call_tool', 'filesystem__read_text_file', 'x'.repeat(500)]) {
    const answer = await callHandler(name, {});
    assert.equal(answer.touched, false, name);
    assert.match(answer.error ?? '', /^Tool '.*' is not one of the gateway's tools\.$/, name);
    assert.ok((answer.error ?? '').length < 200, 'the name is quoted as a preview');
  }
});

for (const { tool, args: parsedWith, example } of GATEWAY_TOOL_DECLARATIONS) {
  test(`${tool.name}: the advertised inputSchema is z.toJSONSchema of the parsed schema`, () => {
    const { $schema: _dialect, ...generated } = z.toJSONSchema(parsedWith, { io: 'input' }) as Record<string, unknown>;
    // The same, less the safe-integer bounds zod puts on every .int() (toolInputSchema drops them).
    const bounds = (key: string, value: unknown) =>
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
        ? undefined
        : value;
    assert.deepEqual(tool.inputSchema, JSON.parse(JSON.stringify(generated, bounds)));
    assert.equal(tool.inputSchema.type, 'object');
  });

  test(`${tool.name}: the handler rejects what its schema rejects, with the schema's own error`, async () => {
    const schema: z.ZodObject = parsedWith;
    for (const input of brokenInputs(tool.name, tool.inputSchema as Record<string, unknown>)) {
      const parsed = schema.safeParse(input);
      assert.equal(parsed.success, false, `the schema should reject ${JSON.stringify(input)}`);
      const answer = await callHandler(tool.name, input);
      assert.equal(
        answer.touched,
        false,
        `the handler should reject ${JSON.stringify(input)} before using the gateway`,
      );
      assert.equal(answer.error, describeArgsError(tool.name, parsed.error!));
    }
  });

  test(`${tool.name}: a handler, which accepts what its schema accepts`, async () => {
    assert.equal(parsedWith.safeParse(example).success, true);
    const answer = await callHandler(tool.name, example);
    assert.equal(
      answer.touched,
      true,
      `the handler of ${tool.name} should use the gateway for ${JSON.stringify(example)}`,
    );
    assert.doesNotMatch(answer.error ?? '', /is not one of the gateway's tools/);
  });

  test(`${tool.name}: every annotation set as MCP defines it, a title and a description`, () => {
    const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations ?? {};
    for (const hint of [readOnlyHint, destructiveHint, idempotentHint, openWorldHint])
      assert.equal(typeof hint, 'boolean');
    // A tool that only reads destroys nothing (MCP: destructiveHint means something only when readOnlyHint is false).
    if (readOnlyHint) assert.equal(destructiveHint, false);
    const variant = variantOf(tool.name);
    if (variant) assert.deepEqual([readOnlyHint, destructiveHint], [variant === 'read', variant === 'destructive']);
    assert.ok(tool.title?.trim(), 'a title');
    assert.ok(tool.description?.trim(), 'a description');
  });
}

test('call_tool_* advertise intent.operation_type as required, as intent validation requires it', () => {
  for (const tool of GATEWAY_TOOLS.filter((t) => variantOf(t.name))) {
    const schema = tool.inputSchema as unknown as {
      required: string[];
      properties: { intent: { required: string[] } };
    };
    assert.ok(schema.required.includes('intent'));
    assert.deepEqual(schema.properties.intent.required, ['operation_type']);
  }
});

test('retrieve_tools advertises explain, which its handler uses', () => {
  const tool = GATEWAY_TOOLS.find((t) => t.name === 'retrieve_tools')!;
  assert.equal((tool.inputSchema.properties as Record<string, { type?: string }>).explain?.type, 'boolean');
});
