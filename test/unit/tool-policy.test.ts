import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settingsRefusalText, ToolPolicy, type PolicySettings } from '../../server/trust/tool-policy.js';
import { ToolTrust } from '../../server/trust/tool-trust.js';
import { Store } from '../../server/store/store.js';
import { tempDir } from '../helpers/temp.js';

test('tool policy: disabled powers, blocked tools and held tools, in that order, from settings read on each question', async () => {
  const temp = tempDir();
  const store = await Store.open({ dataDir: temp.dir, fsync: false });
  const trust = new ToolTrust(store);
  try {
    const tool = (name: string, description = 'd') => ({ name, description, inputSchema: { type: 'object' as const } });
    trust.check('fs', [tool('read'), tool('write')], 'allow');
    trust.check('fs', [tool('read'), tool('write', 'now does something else'), tool('remove')], 'quarantine');
    assert.deepEqual(trust.quarantinedOf('fs').sort(), ['remove', 'write'], 'the fixture holds two tools');

    let settings: PolicySettings = { powers: { disabled: ['off'] }, tools: { blocked: ['fs:read', 'fs:remove'] } };
    const policy = new ToolPolicy(() => settings, trust);

    assert.equal(policy.powerRefusal('off'), 'disabled');
    assert.equal(policy.powerRefusal('fs'), undefined);
    assert.equal(policy.settingsRefusal('off', 'anything'), 'disabled', 'a disabled power refuses every tool');
    assert.equal(policy.settingsRefusal('fs', 'read'), 'blocked');
    assert.equal(
      policy.settingsRefusal('fs', 'write'),
      undefined,
      'held is not a settings refusal: retrieve_tools still offers it, marked',
    );
    assert.equal(policy.callRefusal('fs', 'write'), 'awaiting_review');
    assert.equal(policy.callRefusal('fs', 'remove'), 'blocked', 'blocked comes before held');
    assert.equal(policy.callRefusal('fs', 'list'), undefined);
    assert.equal(policy.exposable('fs', 'list'), true);
    assert.equal(policy.exposable('fs', 'write'), false);
    assert.equal(policy.exposable('fs', 'read'), false);
    assert.deepEqual(policy.held('fs').sort(), ['remove', 'write']);
    assert.equal(policy.isHeld('fs', 'read'), false);

    trust.approve('fs', 'write');
    assert.equal(policy.exposable('fs', 'write'), true, 'approval is seen at once');
    settings = { powers: { disabled: [] }, tools: { blocked: [] } };
    assert.equal(policy.powerRefusal('off'), undefined, 'settings are read on each question');
    assert.equal(policy.callRefusal('fs', 'remove'), 'awaiting_review');
  } finally {
    trust.close();
    await store.close();
    temp.cleanup();
  }
});

test('tool policy: the refusal texts name the setting that refuses', () => {
  assert.equal(settingsRefusalText('disabled', 'fs', 'read'), "Power 'fs' is disabled in settings (powers.disabled).");
  assert.equal(settingsRefusalText('blocked', 'fs', 'read'), "Tool 'fs:read' is blocked in settings (tools.blocked).");
});
