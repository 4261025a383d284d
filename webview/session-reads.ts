/**
 * "What the agent read" per session, as bars: the gateway's figure against direct exposure's, both
 * scaled to the larger of the two, so the smaller number is always drawn smaller; the gateway's
 * bar is green only when it is the smaller. Pure numbers for tokens-section.ts; no DOM.
 */
import type { TokenReportInfo } from '../protocol/records.js';

export interface ReadBar {
  label: string;
  tokens: number;
  /** 0-100, of the larger of the pair. */
  percent: number;
  className: 'saved' | 'over' | 'direct';
}

export interface SessionReadRow {
  session: string;
  lastAt: number;
  gateway: ReadBar;
  direct: ReadBar;
  savedTokens: number;
  detail: string;
}

export function readBars(gatewayTokens: number, directTokens: number): { gateway: ReadBar; direct: ReadBar } {
  const max = Math.max(1, gatewayTokens, directTokens);
  return {
    gateway: {
      label: 'Through Grimoire',
      tokens: gatewayTokens,
      percent: (gatewayTokens / max) * 100,
      className: gatewayTokens <= directTokens ? 'saved' : 'over',
    },
    direct: {
      label: 'Direct exposure',
      tokens: directTokens,
      percent: (directTokens / max) * 100,
      className: 'direct',
    },
  };
}

export function sessionReadRows(sessions: TokenReportInfo['sessions']): SessionReadRow[] {
  return sessions.rows.map((row) => ({
    session: row.session,
    lastAt: row.lastAt,
    ...readBars(row.gateway.tokens, row.direct.tokens),
    savedTokens: row.savedTokens,
    detail:
      `Through Grimoire: ${row.gateway.requests} request${row.gateway.requests === 1 ? '' : 's'} carrying ` +
      `the tool list (${row.gateway.toolsListTokens}), ${row.gateway.answers} answers of its own tools ` +
      `(${row.gateway.answerTokens}), ` +
      `${row.gateway.results} results as delivered (${row.gateway.resultTokens}). Directly: ` +
      `${row.direct.requests} request${row.direct.requests === 1 ? '' : 's'} carrying every configured ` +
      `power's tools (${row.direct.toolsListTokens}), the raw results (${row.direct.resultTokens}).`,
  }));
}
