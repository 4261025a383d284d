// The direction of every import, declared once. `npm run lint` checks the sources against it
// (tools/lint/check-layers.mjs); docs/ARCHITECTURE.md explains it.

/**
 * The gateway's layers, lowest first: a module imports its own unit and the units below it, never one
 * above. A unit is a folder (ending in '/') or one file.
 */
export const layers = [
  'protocol/',
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
 * folder, protocol/, and only the pure server modules named here (bundled into it by esbuild).
 */
export const sides = {
  'client/': [
    'server/powers/jsonc.ts',
    'server/powers/import-common.ts',
    'server/powers/import-vscode.ts',
    'server/spells/power-name.ts',
    'server/spells/keyword-suggestions.ts',
    'server/spells/placeholders.ts',
    'server/util/hash.ts',
    'server/util/preview.ts',
    'server/util/safe-read.ts',
  ],
  'webview/': [],
};

/** Not checked: tests, benchmarks, the build scripts (nothing imports them) and the demo powers' sample project. */
export const unchecked = ['test/', 'client/packaging/', 'tools/', 'server/demo/'];

/**
 * Known upward imports being fixed (issue 38), each `from -> to` as file paths. An entry that no
 * longer matches an import fails too, so the list only shrinks.
 */
export const knownViolations = [];
