/**
 * How tokens are counted, the one model for the dashboard, `grimoire stats` and `npm run bench:tokens`:
 * every tool call is one model request (at least: the model asks for the call in one), and every
 * request carries the whole tool list of that moment; each answer and result is read once.
 * Through Grimoire a request carries the gateway's list as it was then, and its own tools
 * (resolve_intent, activate_power, ...) are requests of their own. Directly, every request carries
 * every configured power's tools, and only the powers' own calls are made. Pure: the server counts
 * with it, the dashboard words its figures with it.
 */
import type { TokenReportInfo } from './records.js';

/**
 * A tool list as the agent's model reads it, the one text every count of a list is made from: each
 * tool whole, as its server or the gateway listed it (output schema, annotations and all).
 */
export function toolListText(tools: readonly unknown[]): string {
  return JSON.stringify(tools);
}

export interface RequestTokens {
  requests: number;
  /** The tool lists the requests carried. */
  toolsListTokens: number;
  /** What the agent read: answers and results. */
  readTokens: number;
  tokens: number;
}

/** `lists`: the tool list's tokens on each request, in order. */
export function requestTokens(lists: number[], readTokens: number): RequestTokens {
  const toolsListTokens = lists.reduce((sum, tokens) => sum + tokens, 0);
  return { requests: lists.length, toolsListTokens, readTokens, tokens: toolsListTokens + readTokens };
}

/** Direct exposure of the configured powers for `calls` calls whose raw results took `rawTokens`. */
export function directTokens(calls: number, configuredListTokens: number, rawTokens: number): RequestTokens {
  return requestTokens(new Array<number>(calls).fill(configuredListTokens), rawTokens);
}

/** How the figures are counted, said once wherever they are shown. */
export const REQUEST_MODEL_TEXT =
  'Counted per model request: each tool call is one request to the model, and each request carries the whole tool list of that moment. ' +
  "Through Grimoire: its list then (its own tools and the activated powers'), " +
  'with what VS Code lists directly besides it, its answers, and the results as delivered. ' +
  "Directly: every configured power's tools on every request, and the raw results.";

export interface NumberWords {
  tokens(n: number): string;
  percent(x: number): string;
}

const plain: NumberWords = { tokens: (n) => String(Math.round(n)), percent: (x) => `${Math.round(x * 100)}%` };
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What VS Code lists directly besides Grimoire's list, in words ("" when nothing). */
function besides(alsoDirect: { tools: number; tokens: number }, words: NumberWords): string {
  return alsoDirect.tools > 0
    ? ` plus the ${plural(alsoDirect.tools, 'tool')} (${words.tokens(alsoDirect.tokens)} tokens) VS Code lists directly besides it`
    : '';
}

/** What one request carries, in a sentence: the saving, or why Grimoire's list is the longer. */
export function toolListVerdict(t: TokenReportInfo['toolsList'], words: NumberWords = plain): string {
  const { gateway, configured, alsoDirect } = t;
  const unlisted =
    configured.unlisted > 0
      ? ` (${plural(configured.unlisted, 'configured power')} never listed ` +
        `${configured.unlisted === 1 ? 'its' : 'their'} tools: counted as none.)`
      : '';
  if (configured.tools === 0) {
    return (
      `No configured power has listed its tools yet, so listing them directly would carry nothing; ` +
      `Grimoire's own ${plural(gateway.tools, 'tool')} take ${words.tokens(gateway.tokens)} tokens on each ` +
      `model request.${unlisted}`
    );
  }
  const direct = `the ${plural(configured.tools, 'tool')} of the ${plural(configured.powers, 'configured power')} listed directly`;
  const through = `through Grimoire (its ${plural(gateway.tools, 'tool')}${besides(alsoDirect, words)})`;
  if (t.savedTokens >= 0)
    return (
      `Each model request carries ${words.tokens(t.savedTokens)} tokens (${words.percent(t.reduction)}) ` +
      `fewer ${through} than ${direct}.${unlisted}`
    );
  const why =
    alsoDirect.tools > 0
      ? 'the tools VS Code also lists directly are carried twice: route them through Grimoire alone to stop that.'
      : "Grimoire's own tools cost more than so few tools save. It saves once the configured powers' tools outweigh its list.";
  return `Each model request carries ${words.tokens(-t.savedTokens)} tokens more ${through} than ${direct}: ${why}${unlisted}`;
}

/** Powers VS Code also offers directly, one sentence each: what they cost on every request, and the way out. */
export function listedTwiceText(
  entry: TokenReportInfo['toolsList']['listedTwice'][number],
  words: NumberWords = plain,
): string {
  return (
    `VS Code also offers "${entry.power}" to its agent directly (from ${entry.file}): ` +
    `its ${plural(entry.tools, 'tool')} (${words.tokens(entry.tokens)} tokens) are on every request ` +
    `besides Grimoire's list. ` +
    `"Grimoire: Route Through Grimoire Alone" moves it into a spell file, with a backup and an undo.`
  );
}

/** The sessions' totals in a sentence: the saving, or why going through Grimoire cost more. */
export function sessionsVerdict(
  totals: TokenReportInfo['sessions']['totals'],
  configuredListTokens: number,
  words: NumberWords = plain,
): string {
  const twice =
    totals.alsoDirectTokens > 0
      ? `, counting the ${words.tokens(totals.alsoDirectTokens)} tokens of the tools VS Code listed directly ` +
        `besides Grimoire's on the same requests`
      : '';
  if (totals.savedTokens >= 0)
    return (
      `In all, the agents read ${words.tokens(totals.savedTokens)} tokens ` +
      `(${words.percent(totals.reduction)}) fewer than with the configured powers listed directly${twice}.`
    );
  return (
    `In all, the agents read ${words.tokens(-totals.savedTokens)} tokens more through Grimoire than directly${twice}: ` +
    `its ${plural(totals.extraRequests, 'call')} to its own tools (resolve_intent, activate_power, ` +
    `...) ${totals.extraRequests === 1 ? 'is a model request' : 'are model requests'} that direct ` +
    `exposure does not make, each carrying the tool list and an answer, ` +
    `while listing the configured powers directly costs only ${words.tokens(configuredListTokens)} tokens per request.`
  );
}
