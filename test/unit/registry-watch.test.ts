import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { PowerRegistry, type RegistryChange, type RegistryWatchOptions } from '../../server/powers/registry.js';

const WAIT_MS = 5000;
const QUIET_MS = 700;

function spellText(name: string, description = 'A test power.'): string {
  return `name: ${name}\nversion: "1"\ndescription: ${description}\nkeywords: [one, two, three]\nserver:\n  command: node\n`;
}

function nextChange(registry: PowerRegistry): Promise<RegistryChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      registry.off('change', onChange);
      reject(new Error(`no change event within ${WAIT_MS} ms`));
    }, WAIT_MS);
    const onChange = (change: RegistryChange) => {
      clearTimeout(timer);
      resolve(change);
    };
    registry.once('change', onChange);
  });
}

async function quiet(registry: PowerRegistry): Promise<RegistryChange[]> {
  const seen: RegistryChange[] = [];
  const onChange = (change: RegistryChange) => seen.push(change);
  registry.on('change', onChange);
  await new Promise((r) => setTimeout(r, QUIET_MS));
  registry.off('change', onChange);
  return seen;
}

let root: string;
let registry: PowerRegistry | undefined;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-watch-'));
});
afterEach(() => {
  registry?.close();
  registry = undefined;
  fs.rmSync(root, { recursive: true, force: true });
});

for (const mode of ['fs.watch', 'polling'] as const) {
  const options: RegistryWatchOptions = mode === 'polling' ? { poll: true, pollIntervalMs: 50 } : {};

  describe(`watching spell folders (${mode})`, () => {
    test('add, edit, same content, delete', async () => {
      const dir = path.join(root, 'spells');
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'first.spell.yaml'), spellText('first'));
      registry = new PowerRegistry({ spellDirs: [dir], importFiles: [], env: {} });
      registry.watch(options);
      assert.deepEqual(
        registry.snapshot().powers.map((p) => p.name),
        ['first'],
        'watch() loads first',
      );

      let change = nextChange(registry);
      fs.writeFileSync(path.join(dir, 'second.spell.yaml'), spellText('second'));
      let got = await change;
      assert.deepEqual(
        got.added.map((p) => p.name),
        ['second'],
      );
      assert.deepEqual(got.removed, []);
      assert.deepEqual(got.changed, []);
      assert.deepEqual(
        got.snapshot.powers.map((p) => p.name),
        ['first', 'second'],
      );

      change = nextChange(registry);
      fs.writeFileSync(path.join(dir, 'second.spell.yaml'), spellText('second', 'An edited description.'));
      got = await change;
      assert.deepEqual(got.added, []);
      assert.equal(got.changed.length, 1);
      assert.equal(got.changed[0].before.description, 'A test power.');
      assert.equal(got.changed[0].after.description, 'An edited description.');
      assert.equal(registry.get('second')?.description, 'An edited description.');

      fs.writeFileSync(path.join(dir, 'second.spell.yaml'), spellText('second', 'An edited description.'));
      assert.deepEqual(await quiet(registry), [], 'the same content gives no event');

      change = nextChange(registry);
      fs.rmSync(path.join(dir, 'first.spell.yaml'));
      got = await change;
      assert.deepEqual(
        got.removed.map((p) => p.name),
        ['first'],
      );
      assert.deepEqual(got.added, []);
      assert.equal(registry.get('first'), undefined);
    });

    test('a folder created after watch() started is picked up', async () => {
      const dir = path.join(root, 'later', 'nested', 'spells');
      registry = new PowerRegistry({ spellDirs: [dir], importFiles: [], env: {} });
      registry.watch(options);
      assert.deepEqual(registry.snapshot().powers, []);
      const change = nextChange(registry);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'late.spell.yaml'), spellText('late'));
      const got = await change;
      const names = got.snapshot.powers.map((p) => p.name);
      assert.deepEqual(names, ['late']);

      const edit = nextChange(registry);
      fs.writeFileSync(path.join(dir, 'late.spell.yaml'), spellText('late', 'Edited once the folder exists.'));
      assert.equal((await edit).changed[0].after.description, 'Edited once the folder exists.');
    });

    test('a folder deleted and re-created is watched again', async () => {
      const dir = path.join(root, 'spells');
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'old.spell.yaml'), spellText('old'));
      registry = new PowerRegistry({ spellDirs: [dir], importFiles: [], env: {} });
      registry.watch(options);
      let change = nextChange(registry);
      fs.rmSync(dir, { recursive: true });
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'new.spell.yaml'), spellText('new'));
      let got = await change;
      assert.deepEqual(
        got.removed.map((p) => p.name),
        ['old'],
      );
      assert.deepEqual(
        got.snapshot.powers.map((p) => p.name),
        ['new'],
      );

      change = nextChange(registry);
      fs.writeFileSync(path.join(dir, 'newer.spell.yaml'), spellText('newer'));
      got = await change;
      assert.deepEqual(
        got.added.map((p) => p.name),
        ['newer'],
      );
    });

    test('an imported config saved by rename, and a broken spell that becomes valid', async () => {
      const dir = path.join(root, 'spells');
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'fixme.spell.yaml'), 'name: fixme\nkeywords: [\n');
      const config = path.join(root, 'claude', 'claude_desktop_config.json');
      registry = new PowerRegistry({
        spellDirs: [dir],
        importFiles: [{ kind: 'claude-desktop', file: config }],
        env: {},
      });
      registry.watch(options);
      assert.equal(registry.snapshot().issues.length, 1);

      let change = nextChange(registry);
      fs.mkdirSync(path.dirname(config));
      fs.writeFileSync(config + '.tmp', JSON.stringify({ mcpServers: { memory: { command: 'npx' } } }));
      fs.renameSync(config + '.tmp', config);
      let got = await change;
      assert.deepEqual(
        got.added.map((p) => [p.name, p.source.kind]),
        [['memory', 'claude-desktop']],
      );

      const issues = new Promise<number>((resolve) => registry!.once('issues', (s) => resolve(s.issues.length)));
      change = nextChange(registry);
      fs.writeFileSync(path.join(dir, 'fixme.spell.yaml'), spellText('fixme'));
      got = await change;
      assert.deepEqual(
        got.added.map((p) => p.name),
        ['fixme'],
      );
      assert.equal(await issues, 0);
    });
  });
}

test('close() stops watching', async () => {
  const dir = path.join(root, 'spells');
  fs.mkdirSync(dir);
  registry = new PowerRegistry({ spellDirs: [dir], importFiles: [], env: {} });
  registry.watch();
  registry.close();
  fs.writeFileSync(path.join(dir, 'after.spell.yaml'), spellText('after'));
  assert.deepEqual(await quiet(registry), []);
  assert.equal(registry.get('after'), undefined);
});

test('reloadNow reads the folders at once and reports what changed', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grimoire-reload-'));
  try {
    const registry = new PowerRegistry({ spellDirs: [dir], importFiles: [], env: {} });
    registry.load();
    let emitted = 0;
    registry.on('change', () => (emitted += 1));
    fs.writeFileSync(
      path.join(dir, 'late.spell.yaml'),
      'name: late\nversion: 1.0.0\ndescription: Added later.\nkeywords: [a, b, c]\nserver:\n  command: node\n',
    );
    const change = registry.reloadNow();
    assert.deepEqual(
      change.added.map((p) => p.name),
      ['late'],
    );
    assert.equal(emitted, 1);
    assert.equal(registry.reloadNow().added.length, 0, 'nothing new the second time');
    assert.equal(emitted, 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
