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
  /** A subject word of the request, whatever its weight (one in a clause counts less, and is still what the request is about). */
  subject?: boolean;
}

export interface TermMatch {
  term: string;
  score: number;
  /** The field that contributed most of this term's score. */
  field: string;
}

export interface IndexedDocument {
  id: string;
  fields: Record<string, string[]>;
  /** Per field, the weight of each of its terms (parallel to `fields[field]`). */
  weights?: Record<string, number[]>;
}

function fieldLength(doc: IndexedDocument, field: string): number {
  const weights = doc.weights?.[field];
  return weights ? weights.reduce((a, b) => a + b, 0) : (doc.fields[field]?.length ?? 0);
}

interface Posting {
  doc: number;
  /** The term's field-weighted, length-normalised frequency in the document. */
  pseudoTf: number;
  /** The field that contributed most of it. */
  field: string;
}

export class Bm25fIndex {
  private ids: string[] = [];
  /** term -> the documents that contain it, with the term's pseudo-frequency there. */
  private postings = new Map<string, Posting[]>();
  private avgLength = new Map<string, number>();

  constructor(
    private readonly fields: Record<string, FieldSpec>,
    private readonly k1 = 1.2,
  ) {}

  /**
   * Replaces the index. `docs` maps each field name to the terms of that field; `weights`, where
   * given for a field, says how much each of its terms counts (1 when absent).
   */
  build(docs: IndexedDocument[]): void {
    this.ids = docs.map((doc) => doc.id);
    this.avgLength = new Map();
    for (const field of Object.keys(this.fields)) {
      const total = docs.reduce((sum, doc) => sum + fieldLength(doc, field), 0);
      this.avgLength.set(field, Math.max(1, total / Math.max(1, docs.length)));
    }
    this.postings = new Map();
    docs.forEach((doc, index) => {
      const perTerm = new Map<string, { pseudoTf: number; field: string; best: number }>();
      for (const [field, spec] of Object.entries(this.fields)) {
        const fieldTerms = doc.fields[field] ?? [];
        if (fieldTerms.length === 0) continue;
        const norm = 1 - spec.b + (spec.b * fieldLength(doc, field)) / (this.avgLength.get(field) ?? 1);
        const termWeights = doc.weights?.[field];
        const tf = new Map<string, number>();
        fieldTerms.forEach((term, i) => tf.set(term, (tf.get(term) ?? 0) + (termWeights?.[i] ?? 1)));
        for (const [term, count] of tf) {
          const part = (spec.weight * count) / norm;
          const entry = perTerm.get(term) ?? { pseudoTf: 0, field, best: 0 };
          entry.pseudoTf += part;
          if (part > entry.best) {
            entry.best = part;
            entry.field = field;
          }
          perTerm.set(term, entry);
        }
      }
      for (const [term, { pseudoTf, field }] of perTerm) {
        if (pseudoTf <= 0) continue;
        const list = this.postings.get(term);
        const posting = { doc: index, pseudoTf, field };
        if (list) list.push(posting);
        else this.postings.set(term, [posting]);
      }
    });
  }

  get size(): number {
    return this.ids.length;
  }

  idf(term: string): number {
    const n = this.ids.length;
    const df = this.documentFrequency(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  documentFrequency(term: string): number {
    return this.postings.get(term)?.length ?? 0;
  }

  /**
   * The documents that share a term with the query, scored; `matches` explains where each term
   * matched. `idf` may come from another index over the same documents, to score on its scale.
   */
  score(
    query: WeightedTerm[],
    idf: (term: string) => number = (term) => this.idf(term),
  ): Array<{ id: string; score: number; matches: TermMatch[] }> {
    const results = new Map<number, { id: string; score: number; matches: TermMatch[] }>();
    for (const { term, weight } of query) {
      const postings = this.postings.get(term);
      if (!postings) continue;
      const termIdf = idf(term);
      for (const { doc, pseudoTf, field } of postings) {
        const termScore = weight * termIdf * (pseudoTf / (this.k1 + pseudoTf));
        let result = results.get(doc);
        if (!result) {
          result = { id: this.ids[doc], score: 0, matches: [] };
          results.set(doc, result);
        }
        result.score += termScore;
        result.matches.push({ term, score: termScore, field });
      }
    }
    return [...results.values()];
  }

  /** Every document id, in index order. */
  allIds(): readonly string[] {
    return this.ids;
  }
}
