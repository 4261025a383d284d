import type { SpellExtensions } from '../powers/spell-schema.js';

/** A tool's hints as a spell declares them. Tool names are the power's own (or `power:tool`). */
export interface ToolHints {
  prerequisites: string[];
  nextActions: string[];
  /** Error code or message pattern -> what to do. */
  errorHints: Record<string, string>;
  audit: boolean;
}

const EMPTY: ToolHints = { prerequisites: [], nextActions: [], errorHints: {}, audit: false };

export function declaredHints(extensions: SpellExtensions | undefined, tool: string): ToolHints {
  const hints = extensions?.hints?.[tool];
  if (!hints) return EMPTY;
  return {
    prerequisites: hints.prerequisites ?? [],
    nextActions: hints.next_actions ?? [],
    errorHints: hints.error_hints ?? {},
    audit: hints.audit === true,
  };
}

/** `tool` or `power:tool` -> `power:tool`. */
export function qualify(power: string, tool: string): string {
  return tool.includes(':') ? tool : `${power}:${tool}`;
}

/** Hint entries and hint targets that name no tool of the power, once its tools are known. */
export function unknownHintTools(power: string, extensions: SpellExtensions | undefined, tools: string[]): string[] {
  const known = new Set(tools);
  const problems: string[] = [];
  for (const [tool, hints] of Object.entries(extensions?.hints ?? {})) {
    if (!known.has(tool))
      problems.push(`hints.${tool}: '${power}' has no tool '${tool}' (its tools: ${tools.join(', ')})`);
    for (const [field, targets] of [
      ['prerequisites', hints.prerequisites ?? []],
      ['next_actions', hints.next_actions ?? []],
    ] as const) {
      for (const target of targets) {
        if (!target.includes(':') && !known.has(target))
          problems.push(`hints.${tool}.${field}: '${power}' has no tool '${target}'`);
      }
    }
  }
  return problems;
}

/** The error hint whose key is the error's code or occurs in its message (case-insensitive). */
export function matchErrorHint(
  errorHints: Record<string, string>,
  code: string | undefined,
  message: string,
): { key: string; hint: string } | undefined {
  const lower = message.toLowerCase();
  for (const [key, hint] of Object.entries(errorHints)) {
    if ((code !== undefined && key === code) || lower.includes(key.toLowerCase())) return { key, hint };
    try {
      if (new RegExp(key, 'i').test(message)) return { key, hint };
    } catch {
      // not a regular expression: the substring test above was the match
    }
  }
  return undefined;
}
