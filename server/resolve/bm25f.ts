/**
 * BM25F: BM25 over documents with several fields, each with its own weight and length
 * normalisation (Robertson & Zaragoza, "The Probabilistic Relevance Framework", 2009).
 */

export interface FieldSpec {
  weight: number;
  /** Length normalisation, 0 (none) .. 1 (full). */
  b: number;
}

export interface WeightedTerm {
  term: string;
  /** 1 for a term the user wrote; less for one added by expansion. */
  weight: number;
}

export interface TermMatch {
  term: string;
  score: number;
  /** The field that contributed most of this term's score. */
  field: string;
}

interface IndexedDoc {
  id: string;
  fields: Map<string, { tf: Map<string, number>; length: number }>;
  terms: Set<string>;
}

export class Bm25fIndex {
  private docs: IndexedDoc[] = [];
  private df = new Map<string, number>();
  private avgLength = new Map<string, number>();

  constructor(
    private readonly fields: Record<string, FieldSpec>,
    private readonly k1 = 1.2,
  ) {}

  /** Replaces the index. `docs` maps each field name to the terms of that field. */
  build(docs: Array<{ id: string; fields: Record<string, string[]> }>): void {
    this.docs = docs.map(({ id, fields }) => {
      const indexed = new Map<string, { tf: Map<string, number>; length: number }>();
      const terms = new Set<string>();
      for (const [field, fieldTerms] of Object.entries(fields)) {
        const tf = new Map<string, number>();
        for (const term of fieldTerms) {
          tf.set(term, (tf.get(term) ?? 0) + 1);
          terms.add(term);
        }
        indexed.set(field, { tf, length: fieldTerms.length });
      }
      return { id, fields: indexed, terms };
    });
    this.df = new Map();
    for (const doc of this.docs) for (const term of doc.terms) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    this.avgLength = new Map();
    for (const field of Object.keys(this.fields)) {
      const total = this.docs.reduce((sum, doc) => sum + (doc.fields.get(field)?.length ?? 0), 0);
      this.avgLength.set(field, Math.max(1, total / Math.max(1, this.docs.length)));
    }
  }

  get size(): number {
    return this.docs.length;
  }

  idf(term: string): number {
    const n = this.docs.length;
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  documentFrequency(term: string): number {
    return this.df.get(term) ?? 0;
  }

  /** Scores every document; `matches` explains which terms matched where. */
  score(query: WeightedTerm[]): Array<{ id: string; score: number; matches: TermMatch[] }> {
    return this.docs.map((doc) => {
      let score = 0;
      const matches: TermMatch[] = [];
      for (const { term, weight } of query) {
        if (!doc.terms.has(term)) continue;
        let pseudoTf = 0;
        let bestField = '';
        let bestPart = 0;
        for (const [field, spec] of Object.entries(this.fields)) {
          const entry = doc.fields.get(field);
          const tf = entry?.tf.get(term);
          if (!entry || !tf) continue;
          const part = (spec.weight * tf) / (1 - spec.b + (spec.b * entry.length) / (this.avgLength.get(field) ?? 1));
          pseudoTf += part;
          if (part > bestPart) {
            bestPart = part;
            bestField = field;
          }
        }
        const termScore = weight * this.idf(term) * (pseudoTf / (this.k1 + pseudoTf));
        score += termScore;
        matches.push({ term, score: termScore, field: bestField });
      }
      return { id: doc.id, score, matches };
    });
  }
}
