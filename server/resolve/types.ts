/** The resolver's contract: the gateway hands it power documents and asks it to rank a query. */

/** A request that once led to a successful use, with how much it still counts (0..1, decaying with age). */
export interface LearnedText {
  text: string;
  weight: number;
}

export interface ToolDocument {
  name: string;
  description?: string;
  /** Names of the tool's input parameters. */
  parameters?: string[];
  /** How tool rankings name this tool; `<power>:<tool>` when not given. */
  id?: string;
  /** Requests that led to a successful call of this tool. */
  learned?: LearnedText[];
  /** Its annotations (declared, else inferred from its name) say it may destroy or overwrite something. */
  destructive?: boolean;
  /** Its annotations (declared, else inferred from its name) say a call may change something (destructive or not). */
  writes?: boolean;
}

export interface PowerDocument {
  name: string;
  description: string;
  keywords: string[];
  tools: ToolDocument[];
  /** Requests that led to a successful use of this power. */
  learned?: LearnedText[];
}

/** `learned`: the words of requests that led to a successful use of the power before. */
export type MatchType = 'name' | 'keyword' | 'description' | 'tool' | 'learned';

export interface PowerScore {
  name: string;
  /** Raw lexical score, comparable only within one query. */
  score: number;
  /**
   * 0..1, the same scale with or without a model: 1 for the best candidate, the ranking's order.
   * Lexical only, the score over the best score; with a model, the mean of that and the semantic
   * similarity over the best similarity, over the best such mean.
   */
  relevance: number;
  /** 0..1: how sure the resolver is that this power is what the query asks for. */
  confidence: number;
  /** The field that contributed most to the score. */
  matchType: MatchType;
  matchedTerms: string[];
  /** Cosine similarity of query and power embeddings, when a model is loaded. */
  semantic?: number;
  /** The lexical score over the best the query could reach (0..1). */
  normalized?: number;
  /** IDF-weighted share of the query's subject words matched (0..1). */
  coverage?: number;
  /**
   * The share of the match on words the power (or tool) does not declare itself by: only in its
   * tools' descriptions or parameter names (0..1). A match mostly in passing never auto-activates.
   */
  incidental?: number;
  /** The share of the lexical score from the power's name and keywords (0..1). */
  identity?: number;
}

export interface Resolver {
  /** Replaces the indexed documents. */
  index(documents: PowerDocument[]): void;
  /** Every indexed power, best first. Async: a semantic resolver embeds the query first. */
  rank(query: string): Promise<PowerScore[]>;
  /** Every indexed tool, best first, named by `tool_id` (`<power>:<tool>` unless the catalog says otherwise). */
  rankTools?(query: string): Promise<PowerScore[]>;
}

export interface TierThresholds {
  activateThreshold: number;
  multipleThreshold: number;
  weakThreshold: number;
}
