/** JSON with comments and trailing commas (VS Code's config dialect), read with VS Code's own parser (jsonc-parser). */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** The value, or a SyntaxError naming the line and column of the first error. */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text.replace(/^\uFEFF/, ''), errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first) {
    const before = text
      .replace(/^\uFEFF/, '')
      .slice(0, first.offset)
      .split('\n');
    const what = printParseErrorCode(first.error)
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase();
    throw new SyntaxError(`line ${before.length}, column ${before[before.length - 1]!.length + 1}: ${what}`);
  }
  return value;
}
