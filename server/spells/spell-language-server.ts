/**
 * The language server for `grimoire-spell` documents, on the gateway's own JSON-RPC connection:
 * diagnostics on open and on every edit, completion, hover and quick fixes. Documents are synced
 * whole (spell files are small).
 */
import { fileURLToPath } from 'node:url';
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  InsertTextFormat,
  MarkupKind,
  TextDocumentSyncKind,
  type CodeAction,
  type CompletionItem,
  type Connection,
  type Diagnostic,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import { checkSpell, type SpellCheckContext, type SpellProblem } from './check-spell.js';
import { completeSpell } from './spell-completion.js';
import { hoverSpell } from './spell-hover.js';

export const SPELL_LANGUAGE_ID = 'grimoire-spell';

export const spellCapabilities: ServerCapabilities = {
  textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Full },
  completionProvider: { triggerCharacters: [':', ' ', '-'] },
  hoverProvider: true,
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
};

/** What the checker needs to know about the rest of the workspace, for one file. */
export type SpellContextFor = (file: string) => SpellCheckContext;

const EDIT_DEBOUNCE_MS = 150;

export function fileOfUri(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

export function toDiagnostic(problem: SpellProblem): Diagnostic {
  return {
    range: problem.range,
    severity: problem.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    source: 'grimoire',
    code: problem.code,
    message: `${problem.message}. Fix: ${problem.fix}`,
  };
}

export class SpellLanguageServer {
  private readonly documents = new Map<string, { text: string; languageId: string }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly connection: Connection,
    private readonly contextFor: SpellContextFor,
  ) {}

  listen(): void {
    const connection = this.connection;
    connection.onDidOpenTextDocument(({ textDocument }) => {
      this.documents.set(textDocument.uri, { text: textDocument.text, languageId: textDocument.languageId });
      this.validate(textDocument.uri);
    });
    connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
      const document = this.documents.get(textDocument.uri);
      const last = contentChanges.at(-1);
      if (!document || !last) return;
      document.text = last.text;
      clearTimeout(this.timers.get(textDocument.uri));
      this.timers.set(
        textDocument.uri,
        setTimeout(() => this.validate(textDocument.uri), EDIT_DEBOUNCE_MS),
      );
    });
    connection.onDidCloseTextDocument(({ textDocument }) => {
      clearTimeout(this.timers.get(textDocument.uri));
      this.documents.delete(textDocument.uri);
      void connection.sendDiagnostics({ uri: textDocument.uri, diagnostics: [] });
    });
    connection.onCompletion(({ textDocument, position }): CompletionItem[] => {
      const document = this.documents.get(textDocument.uri);
      if (!document) return [];
      const context = this.contextFor(fileOfUri(textDocument.uri));
      const name = /^name:\s*["']?([a-z0-9-]+)/m.exec(document.text)?.[1];
      const tools = name ? (context.toolsOf?.(name) ?? []) : [];
      return completeSpell(document.text, position, tools).map((item) => ({
        label: item.label,
        kind:
          item.kind === 'field'
            ? CompletionItemKind.Property
            : item.kind === 'tool'
              ? CompletionItemKind.Function
              : CompletionItemKind.EnumMember,
        detail: item.detail,
        ...(item.documentation ? { documentation: { kind: MarkupKind.Markdown, value: item.documentation } } : {}),
        insertText: item.insertText,
        insertTextFormat: InsertTextFormat.PlainText,
      }));
    });
    connection.onHover(({ textDocument, position }) => {
      const document = this.documents.get(textDocument.uri);
      const value = document ? hoverSpell(document.text, position) : undefined;
      return value ? { contents: { kind: MarkupKind.Markdown, value } } : null;
    });
    connection.onCodeAction(({ textDocument, range }): CodeAction[] => {
      const document = this.documents.get(textDocument.uri);
      if (!document) return [];
      const { problems } = checkSpell(
        document.text,
        fileOfUri(textDocument.uri),
        this.contextFor(fileOfUri(textDocument.uri)),
      );
      const overlaps = (problem: SpellProblem) =>
        !(problem.range.end.line < range.start.line || problem.range.start.line > range.end.line);
      return problems
        .filter((problem) => problem.quickFix && overlaps(problem))
        .map((problem) => ({
          title: problem.quickFix!.title,
          kind: CodeActionKind.QuickFix,
          isPreferred: true,
          diagnostics: [toDiagnostic(problem)],
          edit: {
            changes: { [textDocument.uri]: [{ range: problem.quickFix!.range, newText: problem.quickFix!.newText }] },
          },
        }));
    });
  }

  /** Checks every open document again (the workspace's powers or tools changed). */
  validateAll(): void {
    for (const uri of this.documents.keys()) this.validate(uri);
  }

  private validate(uri: string): void {
    this.timers.delete(uri);
    const document = this.documents.get(uri);
    if (!document) return;
    const file = fileOfUri(uri);
    const { problems } = checkSpell(document.text, file, this.contextFor(file));
    // An unsaved buffer has no file name to compare the spell's name with.
    const shown = uri.startsWith('file:') ? problems : problems.filter((problem) => problem.code !== 'file-name');
    void this.connection.sendDiagnostics({ uri, diagnostics: shown.map(toDiagnostic) });
  }
}
