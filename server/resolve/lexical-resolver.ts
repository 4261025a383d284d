import { Bm25fIndex, type FieldSpec, type TermMatch, type WeightedTerm } from './bm25f.js';
import { domainTagTerms } from './domain-tags.js';
import { bigrams, queryTerms } from './query-terms.js';
import { terms } from './text.js';
import type { MatchType, PowerDocument } from './types.js';

const POWER_FIELDS: Record<string, FieldSpec> = {
  name: { weight: 3, b: 0.3 },
  keywords: { weight: 2.5, b: 0.3 },
  description: { weight: 0.5, b: 0.75 },
  toolNames: { weight: 4, b: 0.5 },
  toolDescriptions: { weight: 0.5, b: 0.75 },
  parameters: { weight: 0.3, b: 0.5 },
  domains: { weight: 1, b: 0.5 },
  phrases: { weight: 1, b: 0.5 },
};

const TOOL_FIELDS: Record<string, FieldSpec> = {
  name: { weight: 3, b: 0.3 },
  description: { weight: 1.5, b: 0.75 },
  parameters: { weight: 0.5, b: 0.5 },
  power: { weight: 0.6, b: 0.75 },
  domains: { weight: 1, b: 0.5 },
};

const FIELD_MATCH_TYPE: Record<string, MatchType> = {
  name: 'name',
  keywords: 'keyword',
  description: 'description',
  toolNames: 'tool',
  toolDescriptions: 'tool',
  parameters: 'tool',
  power: 'description',
  domains: 'description',
};

/**
 * BM25's saturation. Higher than the textbook 1.2 because BM25F's pseudo-frequency already
 * carries the field weights (a title hit counts 3).
 */
const K1 = 2;

/** One document's lexical match, before fusion and calibration. */
export interface LexicalCandidate {
  name: string;
  /** Raw BM25F score, comparable only within one query. */
  score: number;
  /** The score over the best score this query's catalog-known words could reach (0..1). */
  normalized: number;
  /** IDF-weighted share of the query's catalog-known subject words that this document matched (0..1). */
  coverage: number;
  matchType: MatchType;
  matchedTerms: string[];
}

/**
 * Lexical relevance: BM25F over each power's fields (name, keywords, description, tool names,
 * tool descriptions, parameter names) and, for tool ranking, over each tool's own fields.
 */
export class LexicalResolver {
  private readonly powers = new Bm25fIndex(POWER_FIELDS, K1);
  private readonly tools = new Bm25fIndex(TOOL_FIELDS, K1);

  /** Analysed documents by content: a re-index analyses only the powers whose text changed. */
  private analysed = new Map<string, AnalysedPower>();

  index(documents: PowerDocument[]): void {
    const next = new Map<string, AnalysedPower>();
    const analysed = documents.map((doc) => {
      const key = JSON.stringify(doc);
      const entry = this.analysed.get(key) ?? next.get(key) ?? analysePower(doc);
      next.set(key, entry);
      return entry;
    });
    this.analysed = next;
    this.powers.build(analysed.map((entry) => entry.power));
    this.tools.build(analysed.flatMap((entry) => entry.tools));
  }

  /** Every power, best first (those that matched nothing last, in index order). */
  rankPowers(query: string): LexicalCandidate[] {
    const matched = rankIndex(this.powers, queryTerms(query));
    const seen = new Set(matched.map((c) => c.name));
    const unmatched = this.powers.allIds().filter((id) => !seen.has(id));
    return [...matched, ...unmatched.map((name) => ({ name, score: 0, normalized: 0, coverage: 0, matchType: 'description' as const, matchedTerms: [] }))];
  }

  /** The tools that matched the query, best first, named by their ids. */
  rankTools(query: string): LexicalCandidate[] {
    return rankIndex(this.tools, queryTerms(query));
  }
}

interface AnalysedPower {
  power: { id: string; fields: Record<string, string[]> };
  tools: Array<{ id: string; fields: Record<string, string[]> }>;
}

function analysePower(doc: PowerDocument): AnalysedPower {
  const fields = {
    name: terms(doc.name),
    keywords: doc.keywords.flatMap(terms),
    description: terms(doc.description),
    toolNames: doc.tools.flatMap((tool) => terms(tool.name)),
    toolDescriptions: doc.tools.flatMap((tool) => terms(tool.description ?? '')),
    parameters: doc.tools.flatMap((tool) => (tool.parameters ?? []).flatMap(terms)),
  };
  const own = [...fields.name, ...fields.keywords, ...fields.description, ...fields.toolNames, ...fields.toolDescriptions];
  const phrases = [fields.name, fields.keywords, fields.description, fields.toolNames, fields.toolDescriptions].flatMap(bigrams);
  const powerContext = [...fields.name, ...fields.keywords, ...fields.description];
  return {
    power: { id: doc.name, fields: { ...fields, domains: domainTagTerms(own), phrases } },
    tools: doc.tools.map((tool) => {
      const name = terms(tool.name);
      const description = terms(tool.description ?? '');
      return {
        id: tool.id ?? `${doc.name}:${tool.name}`,
        fields: { name, description, parameters: (tool.parameters ?? []).flatMap(terms), power: powerContext, domains: domainTagTerms([...name, ...description, ...powerContext]) },
      };
    }),
  };
}

function rankIndex(index: Bm25fIndex, query: WeightedTerm[]): LexicalCandidate[] {
  // Words no document has cannot tell the powers apart ("remember that Ada Lovelace ..."): the
  // reachable score and the coverage count only the query's words the catalog knows.
  const known = query.filter((t) => index.documentFrequency(t.term) > 0);
  const subject = known.filter((t) => t.weight >= 1);
  const subjectIdf = subject.reduce((sum, t) => sum + index.idf(t.term), 0);
  const subjectTerms = new Set(subject.map((t) => t.term));
  const reachable = known.reduce((sum, t) => sum + t.weight * index.idf(t.term), 0);
  const scored = index.score(query).map(({ id, score, matches }) => {
    const covered = matches.filter((m) => subjectTerms.has(m.term)).reduce((s, m) => s + index.idf(m.term), 0);
    return {
      name: id,
      score,
      normalized: reachable > 0 ? Math.min(1, score / reachable) : 0,
      coverage: subjectIdf > 0 ? covered / subjectIdf : 0,
      matchType: dominantField(matches),
      matchedTerms: matches.map((m) => m.term),
    };
  });
  return scored.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
}

function dominantField(matches: TermMatch[]): MatchType {
  const byField = new Map<string, number>();
  for (const match of matches) byField.set(match.field, (byField.get(match.field) ?? 0) + match.score);
  const best = [...byField.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  return best ? FIELD_MATCH_TYPE[best] : 'description';
}
