/** The status bar item's text and tooltip. No `vscode` import. */
import type { GatewayStatus } from '../protocol/records.js';

export interface StatusBarModel {
  text: string;
  tooltip: string;
  error: boolean;
  warning: boolean;
}

export function statusBarModel(status: GatewayStatus): StatusBarModel {
  const powers = `${status.powers} power${status.powers === 1 ? '' : 's'}, ${status.activePowers} active`;
  switch (status.health) {
    case 'starting':
      return { text: '$(loading~spin) Grimoire', tooltip: 'Grimoire gateway: starting', error: false, warning: false };
    case 'restarting':
      return {
        text: '$(loading~spin) Grimoire',
        tooltip: 'Grimoire gateway: restarting',
        error: false,
        warning: false,
      };
    case 'failed':
      return {
        text: '$(error) Grimoire',
        tooltip: `Grimoire gateway: ${status.message ?? 'failed'}\nClick to open the dashboard`,
        error: true,
        warning: false,
      };
    case 'ready': {
      const crashed = status.crashedPowers > 0 ? `, ${status.crashedPowers} crashed` : '';
      const issues =
        status.issues > 0 ? `\n${status.issues} configuration problem${status.issues === 1 ? '' : 's'}` : '';
      return {
        text: `$(${status.crashedPowers > 0 ? 'warning' : 'sparkle'}) Grimoire ${status.activePowers}/${status.powers}`,
        tooltip: `Grimoire gateway: ready at ${status.url ?? '?'}\n${powers}${crashed}${issues}\nClick to open the dashboard`,
        error: false,
        warning: status.crashedPowers > 0,
      };
    }
  }
}

export interface MatchingItemModel {
  text: string;
  tooltip: string;
  /** Runs *Download Semantic Model*. */
  command: 'grimoire.downloadSemanticModel';
}

/** While the embedding model is unavailable here: "lexical only", and a click downloads it. Otherwise no item. */
export function matchingItemModel(status: GatewayStatus): MatchingItemModel | undefined {
  if (status.health !== 'ready' || status.matching?.semantic !== 'unavailable') return undefined;
  return {
    text: '$(whole-word) lexical only',
    tooltip:
      `Grimoire matches requests by their words only: ${status.matching.detail}.\nClick to download the ` +
      `semantic model (from Hugging Face, a mirror or a folder on this machine) and match by ` +
      `meaning as well.`,
    command: 'grimoire.downloadSemanticModel',
  };
}
