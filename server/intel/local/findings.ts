/**
 * Collects what a local summarizer found and fits it to a budget: at most five findings of a
 * bounded length, a few insights, and identifiers sharing what is left of an (estimated) token
 * budget by priority (the primary ids first, cheaper lists first among equals). When identifiers do
 * not all fit, an insight says how many are in the artifact.
 */
import type { SummaryBody } from '../summary.js';
import { compactValues, type CompactList } from './compact.js';
import { estimateTokens } from './estimate.js';
import { clip, plural } from './format.js';

export interface Budget {
  /** Characters per finding or insight. */
  findingChars: number;
  /** Estimated tokens for findings, insights and identifiers together. */
  bodyTokens: number;
  /** 3 to 5. */
  maxFindings?: number;
  /** The result's (estimated) tokens, which the budget is a share of. */
  rawTokens?: number;
}

interface IdRequest {
  name: string;
  priority: number;
  order: number;
  render: (maxChars: number) => CompactList;
  /** Named whole whatever the budget (up to ATTENTION_CHARS): the records a reader must not miss. */
  whole?: boolean;
}

/** Characters for one list of records that need attention (about 1,500 tokens). */
const ATTENTION_CHARS = 6_000;

const MAX_FINDINGS = 5;
const MAX_INSIGHTS = 3;

export class Findings {
  private readonly findings: string[] = [];
  private readonly insights: string[] = [];
  private readonly ids: IdRequest[] = [];

  constructor(readonly budget: Budget) {}

  /**
   * For results whose names are the content (listings, directory trees): up to `share` of the
   * result's tokens for the summary, so that more of the names fit.
   */
  widen(share: number): void {
    const rawTokens = this.budget.rawTokens ?? 0;
    this.budget.bodyTokens = Math.max(this.budget.bodyTokens, Math.min(2_400, Math.round(share * rawTokens) - 90));
  }

  get count(): number {
    return this.findings.length;
  }

  finding(text: string): void {
    const clipped = clip(text, this.budget.findingChars);
    if (clipped && !this.findings.includes(clipped)) this.findings.push(clipped);
  }

  insight(text: string): void {
    const clipped = clip(text, this.budget.findingChars);
    if (clipped && !this.insights.includes(clipped)) this.insights.push(clipped);
  }

  /** Every value, compactly (ranges, shared prefixes); lower priority numbers get the budget first. */
  identifiers(name: string, values: Array<string | number>, priority = 1): void {
    if (values.length === 0) return;
    this.ids.push({ name, priority, order: this.ids.length, render: (max) => compactValues(values, max) });
  }

  /** Every record matching a notable condition (all failed ids), compactly, kept whatever the budget. */
  attention(name: string, values: Array<string | number>): void {
    if (values.length === 0) return;
    this.ids.push({
      name,
      priority: -1,
      order: this.ids.length,
      render: (max) => compactValues(values, Math.min(max, ATTENTION_CHARS)),
      whole: true,
    });
  }

  /** A fixed text (e.g. a URL template) counting for `count` values. */
  identifierText(name: string, text: string, count: number, priority = 1): void {
    this.ids.push({
      name,
      priority,
      order: this.ids.length,
      render: (max) => (text.length <= max ? { text, kept: count, total: count } : { text: '', kept: 0, total: count }),
    });
  }

  /** Values grouped under labels: `label: a b c; label2: d`. */
  identifierGroups(
    name: string,
    groups: Array<{ label: string; values: string[] }>,
    total: number,
    priority = 1,
  ): void {
    this.ids.push({ name, priority, order: this.ids.length, render: (max) => renderGroups(groups, total, max) });
  }

  build(): SummaryBody {
    const findings = this.findings.slice(0, this.budget.maxFindings ?? MAX_FINDINGS);
    const insights = this.insights.slice(0, MAX_INSIGHTS);
    const identifiers: Record<string, string> = {};
    let missing = 0;
    // What the findings and insights leave, less room for the "more identifiers" insight.
    let left = this.budget.bodyTokens - estimateTokens(findings.join(' ')) - estimateTokens(insights.join(' ')) - 16;
    left = Math.max(left, 40);
    const requests = [...this.ids].sort((a, b) => a.priority - b.priority || a.order - b.order);
    for (const request of requests) {
      const full = request.render(Number.MAX_SAFE_INTEGER);
      const nameCost = estimateTokens(request.name) + 3;
      const cost = estimateTokens(full.text) + nameCost;
      let list = full;
      if (request.whole) {
        identifiers[request.name] = full.text;
        left -= cost;
        missing += full.total - full.kept;
        continue;
      }
      if (cost > left) {
        if (left - nameCost < 12) {
          missing += full.total;
          continue;
        }
        const density = Math.max(0.05, (cost - nameCost) / Math.max(1, full.text.length));
        list = request.render(Math.floor((left - nameCost - 4) / density));
      }
      if (!list.text || list.kept === 0) {
        missing += list.total;
        continue;
      }
      identifiers[request.name] = list.text;
      left -= estimateTokens(list.text) + nameCost;
      missing += list.total - list.kept;
    }
    if (missing > 0)
      insights.push(
        `${plural(missing, 'more identifier')} did not fit here: they are in the full result (read_artifact).`,
      );
    return {
      keyFindings: findings,
      actionableInsights: insights,
      ...(Object.keys(identifiers).length ? { identifiers } : {}),
    };
  }
}

function renderGroups(groups: Array<{ label: string; values: string[] }>, total: number, max: number): CompactList {
  let text = '';
  let kept = 0;
  for (const group of groups) {
    const head = `${text ? '; ' : ''}${group.label}: `;
    const room = max - text.length - head.length - 12;
    if (room < 8) break;
    const names = compactValues(group.values, room);
    if (names.kept === 0) break;
    text += head + names.text;
    kept += names.kept;
    if (names.kept < names.total) break;
  }
  if (kept < total && !/…\+\d+ more$/.test(text)) text = `${text} …+${total - kept} more`;
  else if (kept < total) text = text.replace(/…\+\d+ more$/, `…+${total - kept} more`);
  return { text, kept, total };
}

/** The share of a listing's or directory tree's tokens its summary may take: there the names are the content. */
export const NAMES_SHARE = 0.3;
