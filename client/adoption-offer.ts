/**
 * What the routing offer says and to whom: every server of VS Code's mcp.json whose tools Grimoire
 * lists too and that the user has not answered "Not Now" for, in one message with its tools and
 * tokens. No `vscode` import.
 */
import type { ListedTwiceInfo, PowerInfo, TokenReportInfo } from '../protocol/records.js';

/** "Not Now" is remembered by this key: the same server in another mcp.json is asked about again. */
export function offerKey(entry: Pick<ListedTwiceInfo, 'file' | 'power'>): string {
  return `${entry.file}#${entry.power}`;
}

/** The listed-twice servers not declined yet, in the report's order. */
export function openOffers(report: TokenReportInfo, declined: ReadonlySet<string>): ListedTwiceInfo[] {
  return report.toolsList.listedTwice.filter((entry) => !declined.has(offerKey(entry)));
}

/**
 * A server of VS Code's mcp.json has tools known to the gateway (listed in the background after
 * start, or later) but is not in the report yet: a fresh report is worth asking for.
 */
export function reportIsBehind(
  powers: readonly PowerInfo[],
  report: TokenReportInfo | undefined,
  declined: ReadonlySet<string>,
): boolean {
  const inReport = new Set((report?.toolsList.listedTwice ?? []).map((entry) => entry.power));
  return powers.some(
    (p) =>
      p.source.kind === 'vscode-mcp' &&
      p.tools.length > 0 &&
      !inReport.has(p.name) &&
      !declined.has(offerKey({ file: p.source.file, power: p.name })),
  );
}

/** One message naming every open server with its tools and tokens; `relative` shortens a file name. */
export function offerText(
  open: readonly ListedTwiceInfo[],
  relative: (file: string) => string = (file) => file,
): string {
  const named = open.map((entry) => `"${entry.power}" (${entry.tools} tools, ${entry.tokens} tokens)`);
  const files = [...new Set(open.map((entry) => relative(entry.file)))].join(', ');
  return open.length === 1
    ? `Grimoire: VS Code also offers ${named[0]} to the agent directly (from ${files}): ` +
        `its tools are listed twice when Grimoire activates it, and on every request even when it does not.`
    : `Grimoire: VS Code also offers ${named.slice(0, -1).join(', ')} and ${named.at(-1)} to the agent ` +
        `directly (from ${files}): their tools are listed twice when Grimoire activates them, ` +
        `and on every request even when it does not.`;
}
