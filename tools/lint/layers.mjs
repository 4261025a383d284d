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
  'server/activity/',
  'server/users/',
  'server/resolve/',
  'server/config/',
  'server/version.ts',
  'server/powers/',
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

/** Not checked: tests, benchmarks, tools/ (the lint, the build and package scripts) and the demo powers' sample project. */
export const unchecked = ['test/', 'tools/', 'server/demo/'];

/**
 * Known upward imports being fixed (issue 38), each `from -> to` as file paths. An entry that no
 * longer matches an import fails too, so the list only shrinks.
 */
export const knownViolations = [];
