/** The MCP revision that made the protocol stateless: a server that speaks it or a later one is "modern". */
export const MODERN_REVISION = '2026-07-28';

/** 'modern' (2026-07-28 and later), 'legacy' (the 2025 and 2024 revisions), '?' before the server ever listed its tools. */
export function eraOf(version: string | undefined): 'modern' | 'legacy' | '?' {
  if (!version) return '?';
  return version >= MODERN_REVISION ? 'modern' : 'legacy';
}
