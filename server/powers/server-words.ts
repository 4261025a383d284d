/** What an MCP server says of itself at `initialize`: serverInfo's title and description, and its instructions. */
export interface ServerWords {
  title?: string;
  description?: string;
  instructions?: string;
}

/** As long as a spell's own description and steering may be: a server's words are no longer. */
const LIMITS = { title: 200, description: 1000, instructions: 5000 } as const;

/** The words kept: trimmed, empty ones left out, each cut to its limit. */
export function boundedWords(words: ServerWords): ServerWords {
  const out: ServerWords = {};
  for (const key of Object.keys(LIMITS) as Array<keyof ServerWords>) {
    const text = typeof words[key] === 'string' ? words[key].trim() : '';
    if (text) out[key] = text.length > LIMITS[key] ? `${text.slice(0, LIMITS[key] - 1)}…` : text;
  }
  return out;
}
