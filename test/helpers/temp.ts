import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before } from 'node:test';

/** A fresh temp folder, removed by the returned cleanup. */
export function tempDir(prefix = 'grimoire-test-'): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const cliPath = path.join(repoRoot, 'out', 'server', 'cli', 'main.js');
export const fixtureServer = (name: string) => path.join(repoRoot, 'out', 'test', 'fixtures', 'servers', `${name}.js`);

export function writeSpell(dir: string, name: string, body: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.spell.yaml`);
  fs.writeFileSync(file, body);
  return file;
}

/** A spell for the unstable test server. */
export function unstableSpell(name = 'unstable', extraArgs: string[] = []): string {
  return `name: ${name}
version: 1.0.0
description: A test server that echoes, crashes, hangs and sleeps on request.
keywords: [echo, crash, hang, sleep, test]
steering: Test guidance for the unstable server.
server:
  command: ${JSON.stringify(process.execPath)}
  args: ${JSON.stringify([fixtureServer('unstable-server'), ...extraArgs])}
`;
}

/** A spell for the annotated test server; `extra` is appended (e.g. an annotations override). */
export function annotatedSpell(extra = ''): string {
  return `name: annotated
version: 1.0.0
description: A test server whose tools cover every annotation case.
keywords: [annotations, matrix, test]
server:
  command: ${JSON.stringify(process.execPath)}
  args: [${JSON.stringify(fixtureServer('annotated-server'))}]
${extra}`;
}

/** A temp folder made before this file's tests and removed after them, with a writer for files in it. */
export function scratchFolder(prefix: string): { root(): string; write(name: string, text: string): string } {
  let root = '';
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  return {
    root: () => root,
    write(name, text) {
      const file = path.join(root, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    },
  };
}
