import { Bm25fIndex, type FieldSpec, type TermMatch, type WeightedTerm } from './bm25f.js';
import { domainTagTerms } from './domain-tags.js';
import { bigrams, queryTerms } from './query-terms.js';
import { terms } from './text.js';
import type { MatchType, PowerDocument } from './types.js';

const POWER_FIELDS: Record<string, FieldSpec> = {
  name: { weight: 3, b: 0.3 },
  keywords: { weight: 2.5, b: 0.3 },
  description: { weight: 0.5, b: 0.75 },
  toolNames: { weight: 1.5, b: 0.5 },
  toolDescriptions: { weight: 0.8, b: 0.75 },
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

const tuning = process.env.GRIMOIRE_TUNE ? (JSON.parse(process.env.GRIMOIRE_TUNE) as Record<string, Record<string, FieldSpec>>) : {};
const { k1: _k1, ...fieldTuning } = tuning;
Object.assign(POWER_FIELDS, fieldTuning.power ?? {});
Object.assign(TOOL_FIELDS, fieldTuning.tool ?? {});

/** One document's lexical match, before fusion and calibration. */
export interface LexicalCandidate {
  name: string;
  /** Raw BM25F score, comparable only within one query. */
  score: number;
  /** The score over the best score this query could reach (0..1). */
  normalized: number;
  /** IDF-weighted share of the query's subject words that this document matched (0..1). */
  coverage: number;
  matchType: MatchType;
  matchedTerms: string[];
}

/**
 * Lexical relevance: BM25F over each power's fields (name, keywords, description, tool names,
 * tool descriptions, parameter names) and, for tool ranking, over each tool's own fields.
 */
export class LexicalResolver {
  private readonly powers = new Bm25fIndex(POWER_FIELDS, (tuning.k1 as unknown as number) ?? 2);
  private readonly tools = new Bm25fIndex(TOOL_FIELDS);

  index(documents: PowerDocument[]): void {
    this.powers.build(
      documents.map((doc) => {
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
        return { id: doc.name, fields: { ...fields, domains: domainTagTerms(own), phrases } };
      }),
    );
    this.tools.build(
      documents.flatMap((doc) => {
        const power = [...terms(doc.name), ...doc.keywords.flatMap(terms), ...terms(doc.description)];
        return doc.tools.map((tool) => {
          const name = terms(tool.name);
          const description = terms(tool.description ?? '');
          return {
            id: tool.id ?? `${doc.name}:${tool.name}`,
            fields: { name, description, parameters: (tool.parameters ?? []).flatMap(terms), power, domains: domainTagTerms([...name, ...description, ...power]) },
          };
        });
      }),
    );
  }

  /** Every power, best first. */
  rankPowers(query: string): LexicalCandidate[] {
    return rankIndex(this.powers, queryTerms(query));
  }

  /** Every tool, best first, named by its id. */
  rankTools(query: string): LexicalCandidate[] {
    return rankIndex(this.tools, queryTerms(query));
  }
}

function rankIndex(index: Bm25fIndex, query: WeightedTerm[]): LexicalCandidate[] {
  const subject = query.filter((t) => t.weight >= 1);
  const subjectIdf = subject.reduce((sum, t) => sum + index.idf(t.term), 0);
  const reachable = query.reduce((sum, t) => sum + t.weight * index.idf(t.term), 0);
  const scored = index.score(query).map(({ id, score, matches }) => {
    const covered = matches.filter((m) => subject.some((t) => t.term === m.term)).reduce((s, m) => s + index.idf(m.term), 0);
    return {
      name: id,
      score,
      normalized: reachable > 0 ? score / reachable : 0,
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
