import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  EXPOSED_NAME_MAX,
  exposedToolName,
  splitQualifiedName,
  TOOL_NAME_PATTERN,
  VSCODE_PREFIX_MAX,
  vscodeToolPrefix,
} from '../../server/gateway/tool-names.js';
import { GATEWAY_TOOLS } from '../../server/gateway/gateway-tools.js';

test('short valid names are <power>__<tool>', () => {
  assert.equal(exposedToolName('filesystem', 'read_text_file'), 'filesystem__read_text_file');
  assert.equal(exposedToolName('everything', 'get-env'), 'everything__get-env');
});

test('invalid characters are replaced and the result is unique and valid', () => {
  const a = exposedToolName('web', 'search.v2');
  const b = exposedToolName('web', 'search_v2');
  assert.match(a, TOOL_NAME_PATTERN);
  assert.notEqual(a, b);
});

test("VS Code's prefix: at most 18 characters, 19 with a collision number; the label the gateway announces", () => {
  assert.equal(vscodeToolPrefix('Grimoire MCP gateway'), 'mcp_grimoire_mcp__');
  assert.equal(vscodeToolPrefix('Grimoire'), 'mcp_grimoire_');
  assert.equal(vscodeToolPrefix('io.github.upstash/context7'), 'mcp_io.github.ups_');
  for (const label of ['Grimoire MCP gateway', 'x'.repeat(40), 'a b c d e f g h i j k l m n']) {
    assert.ok(vscodeToolPrefix(label).length <= 18, label);
    assert.ok(vscodeToolPrefix(label, 9).length <= VSCODE_PREFIX_MAX, label);
  }
});

test('the whole name VS Code builds fits 64 characters, for long real names too, and stays distinct', () => {
  const cases: Array<[string, string]> = [
    ['github', 'add_pull_request_review_comment_to_pending_review'],
    ['github', 'add_pull_request_review_comment_to_pending_reviews'],
    ['notion', 'API-retrieve-a-page-property'],
    ['a-very-long-power-name-imported-from-a-config', 'list_directory_with_sizes'],
    ['filesystem', 'x'.repeat(80)],
    ['filesystem', `${'x'.repeat(80)}y`],
  ];
  const names = cases.map(([power, tool]) => exposedToolName(power, tool));
  for (const name of names) {
    assert.match(name, TOOL_NAME_PATTERN);
    assert.ok(name.length <= EXPOSED_NAME_MAX, name);
    assert.ok(`${vscodeToolPrefix('Grimoire MCP gateway', 9)}${name}`.length <= 64, name);
  }
  assert.equal(new Set(names).size, names.length);
  assert.equal(names[2], 'notion__API-retrieve-a-page-property');
  assert.match(names[0], /^github__add_pull_request_review_comm[a-z_]*_[0-9a-f]{8}$/);
  assert.deepEqual(
    names,
    cases.map(([power, tool]) => exposedToolName(power, tool)),
    'deterministic',
  );
  for (const tool of GATEWAY_TOOLS)
    assert.ok(`${vscodeToolPrefix('Grimoire MCP gateway', 9)}${tool.name}`.length <= 64, tool.name);
});

test('qualified names split on ":" or "__"', () => {
  assert.deepEqual(splitQualifiedName('github:delete_repo'), { power: 'github', tool: 'delete_repo' });
  assert.deepEqual(splitQualifiedName('github__delete_repo'), { power: 'github', tool: 'delete_repo' });
  assert.equal(splitQualifiedName('delete_repo'), undefined);
});
