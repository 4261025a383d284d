import type { ResolverStatusInfo, SemanticModelState } from '../../protocol/records.js';
import { rankingShape, spreadConfidence, topProbability, type CalibrationModel } from './calibration.js';
import { LexicalResolver, type LexicalCandidate } from './lexical-resolver.js';
import type { EmbeddingCache } from '../text/embedding-cache.js';
import { cosine } from '../text/vector.js';
import type { PowerDocument, PowerScore, Resolver } from './types.js';

export interface Calibrations {
  /** The activation threshold fitted with the models (the default of resolve.activateThreshold). */
  activateThreshold?: number;
  /** Fitted on the development sets without a model. */
  lexical: CalibrationModel;
  /** Used while embeddings are available. */
  hybrid: CalibrationModel;
}

export type ResolverStatus = ResolverStatusInfo;

/**
 * Lexical BM25F and, when a sentence-embedding model is available, semantic similarity, fused
 * into one calibrated confidence per power (and per tool). Without a model it ranks lexically and
 * says so in its status; nothing waits for the model.
 */
export class HybridResolver implements Resolver {
  private readonly lexical = new LexicalResolver();
  private documents: PowerDocument[] = [];
  private powerVectors = new Map<string, Float32Array>();
  private toolVectors = new Map<string, Float32Array>();
  private embedding?: Promise<void>;

  constructor(
    private readonly calibrations: Calibrations,
    private readonly semantic?: EmbeddingCache,
    private readonly describeSemantic: () => string = () => 'no embedding model configured',
    private readonly semanticState: () => SemanticModelState = () => 'off',
  ) {}

  index(documents: PowerDocument[]): void {
    this.documents = documents;
    this.lexical.index(documents);
    this.embedding = this.semantic ? this.embedDocuments(documents) : undefined;
  }

  /** Resolves once the documents' vectors are computed, after the model loads (or once it is known to be unavailable). */
  async ready(): Promise<void> {
    await this.embedding;
  }

  status(): ResolverStatus {
    const semantic = this.semanticState();
    if (this.powerVectors.size > 0)
      return { mode: 'hybrid', detail: `lexical BM25F + semantic (${this.describeSemantic()})`, semantic };
    return { mode: 'lexical-only', detail: `lexical BM25F only: ${this.describeSemantic()}`, semantic };
  }

  async rank(query: string): Promise<PowerScore[]> {
    return this.fuse(this.lexical.rankPowers(query), await this.similarities(query, this.powerVectors));
  }

  async rankTools(query: string): Promise<PowerScore[]> {
    return this.fuse(this.lexical.rankTools(query), await this.similarities(query, this.toolVectors));
  }

  private async similarities(
    query: string,
    vectors: Map<string, Float32Array>,
  ): Promise<Map<string, number> | undefined> {
    if (!this.semantic || vectors.size === 0) return undefined;
    const queryVector = await this.semantic.queryVector(query);
    if (!queryVector) return undefined;
    const scores = new Map<string, number>();
    for (const [name, vector] of vectors) scores.set(name, cosine(queryVector, vector));
    return scores;
  }

  /**
   * Gives every candidate its relevance on one 0..1 scale and orders by it: lexically, the score
   * over the best score; with a model, the mean of that and the semantic similarity over the best
   * similarity (score fusion after normalisation, so both signals count on the same scale), over
   * the best such mean. Then gives the top its calibrated probability of being right.
   */
  private fuse(lexical: LexicalCandidate[], semantic: Map<string, number> | undefined): PowerScore[] {
    const bestLexical = Math.max(0, ...lexical.map((c) => c.score));
    const bestSemantic = semantic ? Math.max(0, ...semantic.values()) : 0;
    const relevanceOf = (c: LexicalCandidate) => {
      const lexicalShare = bestLexical > 0 ? c.score / bestLexical : 0;
      if (!semantic) return lexicalShare;
      const semanticShare = bestSemantic > 0 ? Math.max(0, semantic.get(c.name) ?? 0) / bestSemantic : 0;
      return (lexicalShare + semanticShare) / 2;
    };
    const fused = lexical.map((c, index) => ({ c, index, relevance: relevanceOf(c) }));
    const bestFused = Math.max(0, ...fused.map((f) => f.relevance));
    const ordered = fused
      .map((f) => ({ ...f, relevance: bestFused > 0 ? f.relevance / bestFused : 0 }))
      .sort((a, b) => b.relevance - a.relevance || a.index - b.index);
    const top = ordered[0]?.c;
    const rest = ordered.slice(1).map((o) => o.c);
    const bestOtherLexical = rest.reduce<LexicalCandidate | undefined>(
      (best, c) => (!best || c.score > best.score ? c : best),
      undefined,
    );
    const bestOtherSemantic = semantic ? Math.max(0, ...rest.map((c) => semantic.get(c.name) ?? 0)) : undefined;
    const shape = rankingShape(
      top && { ...top, semantic: semantic?.get(top.name) },
      bestOtherLexical,
      bestOtherSemantic,
    );
    const topConfidence = shape
      ? topProbability(shape, semantic ? this.calibrations.hybrid : this.calibrations.lexical)
      : 0;
    const confidence = spreadConfidence(
      ordered.map((o) => o.relevance),
      topConfidence,
    );
    return ordered.map(({ c, relevance }, i) => ({
      name: c.name,
      score: c.score,
      relevance: round(relevance),
      confidence: relevance > 0 ? round(confidence[i]) : 0,
      matchType: c.matchType,
      matchedTerms: c.matchedTerms,
      normalized: round(c.normalized),
      coverage: round(c.coverage),
      incidental: round(c.incidental),
      identity: round(c.identity),
      ...(semantic ? { semantic: round(semantic.get(c.name) ?? 0) } : {}),
    }));
  }

  /** In the background: documents indexed while the model loads get their vectors when it is ready, not at the next index. */
  private async embedDocuments(documents: PowerDocument[]): Promise<void> {
    if (!(await this.semantic!.modelReady()) || this.documents !== documents) return;
    const powers = documents.map((doc) => ({ key: doc.name, text: powerText(doc) }));
    const tools = documents.flatMap((doc) =>
      doc.tools.map((tool) => ({
        key: tool.id ?? `${doc.name}:${tool.name}`,
        text: `${tool.name}: ${tool.description ?? ''}`,
      })),
    );
    const vectors = await this.semantic!.vectorsFor([...powers, ...tools].map((entry) => entry.text));
    if (!vectors || this.documents !== documents) return;
    const toMap = (entries: Array<{ key: string }>, offset: number) =>
      new Map(entries.flatMap((entry, i) => (vectors[offset + i] ? [[entry.key, vectors[offset + i]!] as const] : [])));
    this.powerVectors = toMap(powers, 0);
    this.toolVectors = toMap(tools, powers.length);
  }
}

/** The text a power is embedded by: what it is, then what its tools do. */
export function powerText(doc: PowerDocument): string {
  const tools = doc.tools.map((tool) => `${tool.name}: ${tool.description ?? ''}`.trim()).join('; ');
  return [
    `${doc.name}: ${doc.description}`,
    doc.keywords.length ? `Keywords: ${doc.keywords.join(', ')}` : '',
    tools ? `Tools: ${tools}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

const round = (x: number) => Math.round(x * 1000) / 1000;
