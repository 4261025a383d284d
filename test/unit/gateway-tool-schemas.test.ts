import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import type { CallToolResult } from '../../server/util/mcp-types.js';
import {
  activatePowerArgs,
  deactivatePowerArgs,
  GATEWAY_TOOLS,
  resolveIntentArgs,
} from '../../server/gateway/gateway-tools.js';
import { describeArgsError } from '../../server/util/tool-args.js';
import { retrieveToolsArgs } from '../../server/gateway/call-tool-definitions.js';
import { intentCallArgs, variantOf } from '../../server/calls/intent.js';
import { artifactContextArgs, readArtifactArgs, semanticSearchArgs } from '../../server/intel/tools/intel-tools.js';
import { handleGatewayTool, type GatewayToolPorts } from '../../server/gateway/gateway-tool-handlers.js';
import { handleIntentCall, type IntentCallPorts } from '../../server/gateway/intent-calls.js';
import { handleIntelTool } from '../../server/intel/tools/intel-tool-handlers.js';
import type { Intel } from '../../server/intel/intel.js';

const INTEL_TOOL_NAMES = ['read_artifact', 'get_artifact_context', 'semantic_search'];

/** The schema each handler parses its arguments with, by tool name. */
const parsedWith: Record<string, z.ZodObject> = {
  resolve_intent: resolveIntentArgs,
  activate_power: activatePowerArgs,
  deactivate_power: deactivatePowerArgs,
  retrieve_tools: retrieveToolsArgs,
  call_tool_read: intentCallArgs,
  call_tool_write: intentCallArgs,
  call_tool_destructive: intentCallArgs,
  read_artifact: readArtifactArgs,
  get_artifact_context: artifactContextArgs,
  semantic_search: semanticSearchArgs,
};

/** Arguments each schema accepts: the handler must get past parsing with them. */
const valid: Record<string, Record<string, unknown>> = {
  resolve_intent: { query: 'read a file', explain: true },
  activate_power: { name: 'filesystem' },
  deactivate_power: { name: 'filesystem' },
  retrieve_tools: { query: 'search my notes', limit: 3, detail: 'compact', explain: true },
  call_tool_read: { name: 'filesystem:read_text_file', args: { path: 'a' }, intent: { operation_type: 'read' } },
  call_tool_write: { name: 'memory:create_entities', intent: { operation_type: 'write', reason: 'save' } },
  call_tool_destructive: {
    name: 'filesystem:write_file',
    intent: { operation_type: 'destructive', data_sensitivity: 'private' },
    proceed: true,
  },
  read_artifact: { id: 'art_0123456789ab', offset: 10, limit: 100 },
  get_artifact_context: { ids: ['art_0123456789ab'], maxTokens: 500, query: 'order' },
  semantic_search: { query: 'build log', limit: 2 },
};

/**
 * A fake for the handlers' ports and the intel layer (the handlers' argument parsing is what is tested): it
 * records being used, which means the handler went past parsing, then throws.
 */
let touched = false;
const untouchable = <T extends object>() =>
  new Proxy({} as T, {
    get: () => {
      touched = true;
      throw new Error('past argument parsing');
    },
  });

async function callHandler(name: string, args: Record<string, unknown>): Promise<{ touched: boolean; error?: string }> {
  touched = false;
  const variant = variantOf(name);
  let answer: CallToolResult | undefined;
  try {
    if (variant)
      answer = await handleIntentCall(untouchable<IntentCallPorts>(), variant, args, { sessionId: 'schema-test' });
    else if (INTEL_TOOL_NAMES.includes(name))
      answer = await handleIntelTool(untouchable<Intel>(), name, args, '', Date.now());
    else answer = await handleGatewayTool(untouchable<GatewayToolPorts>(), name, args, 'schema-test');
  } catch {
    return { touched };
  }
  const text = answer?.isError ? answer.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : undefined;
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
    inputs.push({ ...valid[name], [key]: wrong[property.type ?? ''] ?? Symbol('unrepresentable') });
  }
  if (variantOf(name))
    inputs.push(
      { name: valid[name].name },
      { ...valid[name], intent: {} },
      { ...valid[name], intent: { operation_type: 'delete' } },
    );
  return inputs;
}

test('every gateway tool has the schema its handler parses with', () => {
  assert.deepEqual(GATEWAY_TOOLS.map((t) => t.name).sort(), Object.keys(parsedWith).sort());
});

for (const tool of GATEWAY_TOOLS) {
  test(`${tool.name}: the advertised inputSchema is z.toJSONSchema of the parsed schema`, () => {
    const { $schema: _dialect, ...generated } = z.toJSONSchema(parsedWith[tool.name], { io: 'input' }) as Record<
      string,
      unknown
    >;
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
    const schema = parsedWith[tool.name];
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

  test(`${tool.name}: the handler accepts what its schema accepts`, async () => {
    assert.equal(parsedWith[tool.name].safeParse(valid[tool.name]).success, true);
    assert.equal((await callHandler(tool.name, valid[tool.name])).touched, true);
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
