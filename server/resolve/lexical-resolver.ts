import { terms } from './text.js';
import type { MatchType, PowerDocument, PowerScore, Resolver } from './types.js';

const K1 = 1.2;
const B = 0.75;

/** How much a term found in each field counts, relative to the power's description. */
const FIELD_WEIGHTS: Record<MatchType, number> = { name: 3, keyword: 2, tool: 1.5, description: 1 };

interface IndexedPower {
  name: string;
  /** Weighted term frequency over all fields. */
  tf: Map<string, number>;
  /** The field that gave each term most of its weight. */
  bestField: Map<string, MatchType>;
  length: number;
}

/**
 * The first resolver: BM25 over each power's name, keywords, description and tools, with field
 * weights. Confidence combines how much of the query the power covers (IDF-weighted, so rare and
 * unknown words count most) with how clearly it leads the next power: one shared common word is
 * never enough to auto-activate.
 */
export class LexicalResolver implements Resolver {
  private powers: IndexedPower[] = [];
  private df = new Map<string, number>();
  private averageLength = 1;

  index(documents: PowerDocument[]): void {
    this.powers = documents.map(indexPower);
    this.df = new Map();
    for (const power of this.powers) for (const term of power.tf.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    const total = this.powers.reduce((sum, power) => sum + power.length, 0);
    this.averageLength = this.powers.length ? total / this.powers.length : 1;
  }

  async rank(query: string): Promise<PowerScore[]> {
    return this.rankNow(query);
  }

  rankNow(query: string): PowerScore[] {
    const queryTerms = [...new Set(terms(query))];
    const totalIdf = queryTerms.reduce((sum, term) => sum + this.idf(term), 0);
    const scored = this.powers.map((power) => this.score(power, queryTerms, totalIdf));
    scored.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    return withConfidence(scored);
  }

  private idf(term: string): number {
    const n = this.powers.length;
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  private score(power: IndexedPower, queryTerms: string[], totalIdf: number): ScoredPower {
    let score = 0;
    let coveredIdf = 0;
    const fieldScores = new Map<MatchType, number>();
    const matched: string[] = [];
    for (const term of queryTerms) {
      const tf = power.tf.get(term);
      if (!tf) continue;
      const idf = this.idf(term);
      const termScore = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * power.length) / this.averageLength));
      score += termScore;
      coveredIdf += idf;
      matched.push(term);
      const field = power.bestField.get(term) ?? 'description';
      fieldScores.set(field, (fieldScores.get(field) ?? 0) + termScore);
    }
    const matchType = [...fieldScores.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'description';
    return { name: power.name, score, coverage: totalIdf > 0 ? coveredIdf / totalIdf : 0, matchType, matchedTerms: matched };
  }
}

interface ScoredPower extends Omit<PowerScore, 'confidence'> {
  coverage: number;
}

function withConfidence(scored: ScoredPower[]): PowerScore[] {
  const top = scored[0]?.score ?? 0;
  const second = scored[1]?.score ?? 0;
  const lead = top > 0 ? (top - second) / top : 0;
  return scored.map(({ coverage, ...power }, index) => {
    if (power.score <= 0) return { ...power, confidence: 0 };
    const relative = power.score / top;
    const separation = index === 0 ? lead : 0;
    const confidence = coverage * relative * (0.6 + 0.4 * separation);
    return { ...power, confidence: Math.round(confidence * 1000) / 1000 };
  });
}

function indexPower(document: PowerDocument): IndexedPower {
  const tf = new Map<string, number>();
  const bestField = new Map<string, MatchType>();
  const fieldWeight = new Map<string, number>();
  let length = 0;
  const add = (text: string, field: MatchType) => {
    const weight = FIELD_WEIGHTS[field];
    for (const term of terms(text)) {
      tf.set(term, (tf.get(term) ?? 0) + weight);
      length += weight;
      if (weight > (fieldWeight.get(term) ?? 0)) {
        fieldWeight.set(term, weight);
        bestField.set(term, field);
      }
    }
  };
  add(document.name, 'name');
  for (const keyword of document.keywords) add(keyword, 'keyword');
  add(document.description, 'description');
  for (const tool of document.tools) {
    add(tool.name, 'tool');
    if (tool.description) add(tool.description, 'description');
  }
  return { name: document.name, tf, bestField, length: Math.max(1, length) };
}
