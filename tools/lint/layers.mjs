// The direction of every import, declared once. `npm run lint` checks the sources against it
// (tools/lint/check-layers.mjs); docs/ARCHITECTURE.md explains it.

/**
 * The gateway's layers, lowest first: a module imports its own unit and the units below it, never one
 * above. A unit is a folder (ending in '/') or one file.
 */
export const layers = [
  'protocol/',
  'shared/',
  'server/util/',
  'server/log.ts',
  'server/store/',
  'server/text/',
  'server/activity/',
  'server/users/',
  'server/powers/',
  'server/resolve/',
  'server/config/',
  'server/version.ts',
  'server/upstream/',
  'server/trust/',
  'server/ranking/',
  'server/calls/',
  'server/hints/',
  'server/catalog/',
  'server/intel/',
  'server/gateway/',
  'server/composition-root.ts',
  'server/runtime-options.ts',
  'server/runtime-parts.ts',
  'server/runtime.ts',
  'server/spells/',
  'server/rpc/',
  'server/bench/',
  'server/cli/',
  'server/extension-main.ts',
];

/**
 * The extension host and the dashboard run apart from the gateway process: each imports its own
 * folder, protocol/ and the shared units named here (pure code the gateway uses too, bundled into
 * each side by esbuild), never server/: what else they need from the gateway they ask it over the
 * protocol (protocol/extension-methods.ts).
 */
export const sides = {
  'client/': ['shared/'],
  'webview/': [],
};

/**
 * Not held to the layers (cycles and packages are checked everywhere): tests, benchmarks, tools/ (the
 * lint, the build and package scripts) and the demo powers' sample project.
 */
export const unchecked = ['test/', 'tools/', 'server/demo/'];

/**
 * Packages only some units import, checked in every file read (tests and tools included). `in`: where
 * one of `names` is imported; `types`: where it is imported for its types only (`import type`);
 * `loadedIn` (default `in`, and holding it): where code that loads it may sit, the files importing
 * it and those reaching them through any chain of imports that load code.
 */
export const packages = [
  {
    names: ['vscode', 'vscode-languageclient'],
    in: ['client/', 'test/extension/suite/'],
    why: 'the VS Code API exists only in the extension host, where the extension and its test suite run',
  },
  {
    names: ['pg'],
    in: ['server/store/postgres/', 'test/'],
    loadedIn: ['server/', 'test/'],
    why: 'the PostgreSQL store; the gateway opens it through server/store/open-store.ts',
  },
  {
    names: ['better-sqlite3', 'sql.js'],
    in: ['server/store/', 'test/'],
    loadedIn: ['server/', 'test/'],
    why: 'the SQLite store engines',
  },
  {
    names: ['@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/core'],
    in: [
      'server/gateway/',
      'server/upstream/',
      // The SDK's JSON Schema validator, the one MCP clients check structured content with.
      'server/intel/structured-content.ts',
      'test/',
    ],
    // MCP's wire types, declared once for every other server module.
    types: ['server/util/mcp-types.ts'],
    loadedIn: ['server/', 'test/'],
    why: 'the MCP SDK: the gateway serves MCP, the upstream connections reach the powers with it',
  },
  {
    names: ['@modelcontextprotocol/sdk'],
    in: ['test/'],
    why: "the SDK's first line, a development dependency: real v1 clients and servers for the tests",
  },
];
