/** Which build of the .vsix carries the semantic runtime, and what the other builds tell their users. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  BUNDLED_RUNTIME_ENTRY,
  bundledRuntimeDir,
  carriedRuntime,
  currentTarget,
  isRuntimeTarget,
  RUNTIME_TARGETS,
  runtimeAdvice,
} from '../../server/resolve/semantic/runtime-builds.js';
import { tempDir } from '../helpers/temp.js';

test("VS Code's target names: platform-arch, alpine for musl Linux", () => {
  assert.equal(currentTarget('linux', 'x64', false), 'linux-x64');
  assert.equal(currentTarget('linux', 'arm64', true), 'alpine-arm64');
  assert.equal(currentTarget('darwin', 'arm64', true), 'darwin-arm64', 'musl is a Linux matter only');
  assert.equal(currentTarget('win32', 'x64', false), 'win32-x64');
});

test('a platform with a build names it; one without says none carries a runtime for it, and lists those that do', () => {
  assert.equal(
    runtimeAdvice('darwin-arm64'),
    'the darwin-arm64 build of Grimoire carries it: VS Code installs that build from the Marketplace on ' +
      'darwin-arm64, or install the Grimoire .vsix built for darwin-arm64',
  );
  const none = runtimeAdvice('darwin-x64');
  assert.match(none, /^no build of Grimoire carries an ONNX runtime for darwin-x64 \(builds with it: /);
  for (const target of Object.keys(RUNTIME_TARGETS)) assert.ok(none.includes(target), target);
  assert.equal(isRuntimeTarget('alpine-x64'), false);
  assert.equal(isRuntimeTarget('toString'), false, 'own keys only');
});

test("a build's runtime counts only with this platform's binary: the universal build and another platform's build have none", () => {
  const { dir, cleanup } = tempDir();
  try {
    assert.equal(carriedRuntime(dir, 'linux', 'x64'), undefined, 'universal: no runtime folder');
    fs.writeFileSync(path.join(dir, BUNDLED_RUNTIME_ENTRY), '');
    const binaries = path.join(dir, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6', 'win32', 'x64');
    fs.mkdirSync(binaries, { recursive: true });
    fs.writeFileSync(path.join(binaries, 'onnxruntime_binding.node'), '');
    assert.equal(carriedRuntime(dir, 'linux', 'x64'), undefined, 'the win32-x64 build installed on linux-x64');
    assert.equal(carriedRuntime(dir, 'win32', 'x64'), path.join(dir, BUNDLED_RUNTIME_ENTRY));
  } finally {
    cleanup();
  }
});

test("the runtime is looked for only from the gateway's bundle in dist/server/process; a checkout's out/ imports the package", () => {
  const extension = path.join(path.sep, 'home', 'user', '.vscode', 'extensions', 'grimoire.grimoire-0.1.0');
  assert.equal(
    bundledRuntimeDir(path.join(extension, 'dist', 'server', 'process')),
    path.join(extension, 'dist', 'semantic'),
  );
  assert.equal(bundledRuntimeDir(path.join(extension, 'out', 'server', 'resolve', 'semantic')), undefined);
});
