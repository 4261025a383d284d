const CR = 0x0d;

/**
 * The text of the line held in `bytes[start, end)` (its newline excluded), decoded as UTF-8 straight
 * from the bytes it arrived in, without a trailing carriage return (CRLF line ends).
 */
export function lineText(bytes: Buffer, start: number, end: number): string {
  return bytes.toString('utf8', start, end > start && bytes[end - 1] === CR ? end - 1 : end);
}
