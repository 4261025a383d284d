// ESLint for the TypeScript sources, run by `npm run lint` (tools/lint/lint.mjs) and .ci/run.
// typescript-eslint comes from tools/lint/, with its own TypeScript 6: it parses with TypeScript's
// JavaScript API, which TypeScript 7 (the project's compiler) no longer has. For the same reason
// the rules are the non-type-aware recommended ones: type-aware rules would type-check the project
// a second time with TypeScript 6, not with the compiler that builds it.
import { createRequire } from 'node:module';

const lintRequire = createRequire(new URL('./tools/lint/package.json', import.meta.url));
const { default: js } = await import(lintRequire.resolve('@eslint/js'));
const tseslint = lintRequire('typescript-eslint');

export default tseslint.config(
  {
    ignores: [
      'out/',
      'dist/',
      'node_modules/',
      '.vscode-test/',
      '.grimoire-test/',
      'tools/lint/node_modules/',
      'test/fixtures/models/',
      'test/fixtures/results/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused locals are TypeScript's (noUnusedLocals) too. Parameters are not checked (a callback
      // keeps its signature; noUnusedParameters is off on purpose); a leading underscore marks a
      // binding kept on purpose (a key left out of a rest object).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'none', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Deliberate: an error is rewritten into a message for people, and the original is left out
      // on purpose where it may carry a secret (a PostgreSQL URL with its password) or noise.
      'preserve-caught-error': 'off',
      // Deliberate: hostile text is cleaned of control characters (NUL in file names and in
      // PostgreSQL text), which takes control characters in regular expressions.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests read JSON answers of every shape (MCP results, CLI --json); an assertion fails on a wrong one.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
