/**
 * Reading SQL text as SQLite splits it, without compiling it: where the first statement ends and
 * what leads or trails it (white space, comments, semicolons). The store's engines and its
 * read-only check share these.
 */

/** White space and comments, as SQLite skips them between tokens. */
const SPACE_OR_COMMENT = String.raw`\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/`;
const LEADING_SPACE_AND_COMMENTS = new RegExp(`^(?:${SPACE_OR_COMMENT})*`);
const ONLY_SPACE_COMMENTS_AND_SEMICOLONS = new RegExp(`^(?:${SPACE_OR_COMMENT}|;)*$`);

/** `sql` without the white space and comments before its first token. */
export function withoutLeadingComments(sql: string): string {
  return sql.replace(LEADING_SPACE_AND_COMMENTS, '');
}

/** Whether `sql` holds no statement: nothing but white space, comments and semicolons. */
export function holdsNoStatement(sql: string): boolean {
  return ONLY_SPACE_COMMENTS_AND_SEMICOLONS.test(sql);
}

/** `sql` up to its first `;` outside quotes, identifiers and comments (what SQLite compiles first). */
export function firstStatement(sql: string): string {
  /** The index of the last character of `end` found after `from`, or the text's end. */
  const through = (end: string, from: number): number => {
    const at = sql.indexOf(end, from);
    return at < 0 ? sql.length : at + end.length - 1;
  };
  const closing: Record<string, string> = { "'": "'", '"': '"', '`': '`', '[': ']' };
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (closing[c]) i = through(closing[c], i + 1);
    else if (c === '-' && sql[i + 1] === '-') i = through('\n', i + 2);
    else if (c === '/' && sql[i + 1] === '*') i = through('*/', i + 2);
    else if (c === ';') return sql.slice(0, i + 1);
  }
  return sql;
}
