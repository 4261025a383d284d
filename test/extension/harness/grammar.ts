/**
 * Tokenizes a spell file the way the editor does: VS Code's own vscode-textmate and oniguruma (from
 * the code-server install), the extension's grammar, and VS Code's built-in YAML and Markdown grammars.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface RawGrammar {
  scopeName: string;
}
interface LineTokens {
  tokens: Array<{ startIndex: number; endIndex: number; scopes: string[] }>;
  ruleStack: unknown;
}
interface Grammar {
  tokenizeLine(line: string, state: unknown): LineTokens;
}
interface TextMate {
  INITIAL: unknown;
  Registry: new (options: { onigLib: Promise<unknown>; loadGrammar(scope: string): Promise<RawGrammar | null> }) => {
    loadGrammar(scope: string): Promise<Grammar | null>;
  };
  parseRawGrammar(content: string, file: string): RawGrammar;
}
interface Oniguruma {
  loadWASM(data: ArrayBuffer): Promise<void>;
  OnigScanner: new (patterns: string[]) => unknown;
  OnigString: new (text: string) => unknown;
}

export interface TokenizedLine {
  text: string;
  /** Every scope that applies somewhere on the line. */
  scopes: string[];
}

export async function tokenizeSpell(vscodeDir: string, extensionDir: string, file: string): Promise<TokenizedLine[]> {
  const modules = path.join(vscodeDir, 'node_modules');
  // VS Code's own copies, found at run time in the downloaded VS Code: no import can name them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const textmate = require(path.join(modules, 'vscode-textmate')) as TextMate;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const oniguruma = require(path.join(modules, 'vscode-oniguruma')) as Oniguruma;
  const wasm = fs.readFileSync(path.join(modules, 'vscode-oniguruma', 'release', 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);

  const grammarFiles = new Map<string, string>();
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8')) as {
    contributes: { grammars: Array<{ scopeName: string; path: string }> };
  };
  for (const grammar of manifest.contributes.grammars)
    grammarFiles.set(grammar.scopeName, path.join(extensionDir, grammar.path));
  for (const dir of ['yaml', 'markdown-basics']) {
    const syntaxes = path.join(vscodeDir, 'extensions', dir, 'syntaxes');
    for (const name of fs.readdirSync(syntaxes)) {
      const full = path.join(syntaxes, name);
      grammarFiles.set((JSON.parse(fs.readFileSync(full, 'utf8')) as RawGrammar).scopeName, full);
    }
  }
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text: string) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scope) => {
      const grammarFile = grammarFiles.get(scope);
      return grammarFile ? textmate.parseRawGrammar(fs.readFileSync(grammarFile, 'utf8'), grammarFile) : null;
    },
  });
  const grammar = await registry.loadGrammar('source.yaml.spell');
  if (!grammar) throw new Error('the spell grammar did not load');
  let state = textmate.INITIAL;
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((text) => {
      const result = grammar.tokenizeLine(text, state);
      state = result.ruleStack;
      return { text, scopes: [...new Set(result.tokens.flatMap((token) => token.scopes))] };
    });
}
