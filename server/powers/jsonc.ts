/** JSON with comments and trailing commas (VS Code's config dialect), parsed without a dependency. */

/** Blanks out comments and trailing commas, keeping every other character (and so every position) in place. */
export function stripJsonc(text: string): string {
  const out = text.replace(/^\uFEFF/, ' ').split('');
  let i = 0;
  const skipString = () => {
    for (i++; i < out.length && out[i] !== '"'; i++) if (out[i] === '\\') i++;
    i++;
  };
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  while (i < out.length) {
    const c = out[i];
    if (c === '"') skipString();
    else if (c === '/' && out[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const to = end < 0 ? out.length : end;
      blank(i, to);
      i = to;
    } else if (c === '/' && out[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const to = end < 0 ? out.length : end + 2;
      blank(i, to);
      i = to;
    } else i++;
  }
  // Comments are gone now, so a comma followed only by whitespace and a closer is trailing.
  for (i = 0; i < out.length; ) {
    if (out[i] === '"') skipString();
    else if (out[i] === ',') {
      let k = i + 1;
      while (k < out.length && /\s/.test(out[k])) k++;
      if (out[k] === '}' || out[k] === ']') out[i] = ' ';
      i++;
    } else i++;
  }
  return out.join('');
}

export function parseJsonc(text: string): unknown {
  const clean = stripJsonc(text);
  try {
    return JSON.parse(clean);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : clean.trimEnd().length;
    const before = text.slice(0, offset).split('\n');
    throw new SyntaxError(`line ${before.length}, column ${before[before.length - 1].length + 1}: ${message.replace(/ in JSON at position \d+.*$/, '')}`);
  }
}
