/** The structured summary an agent sees in place of a large result. */
import type { SummarizerName } from '../config/intel-settings.js';

export interface SummaryMetadata {
  power: string;
  tool: string;
  /** ISO time of the call that produced the result. */
  timestamp: string;
  /** Where the full result is kept; absent when it could not be stored. */
  artifactId?: string;
  summarizer: SummarizerName | 'similar';
  rawBytes: number;
  /** Present on a cache hit: the tool was not called again. */
  cached?: true;
  /** Present when the wording was reused from a similar earlier result. */
  reusedFrom?: string;
}

/** Identifiers the agent is likely to need, kept compactly (see local/compact.ts). */
export type Identifiers = Record<string, string>;

export interface Summary {
  keyFindings: string[];
  actionableInsights: string[];
  identifiers?: Identifiers;
  metadata: SummaryMetadata;
}

/** What a summarizer produces; the metadata is added by the caller. */
export interface SummaryBody {
  keyFindings: string[];
  actionableInsights: string[];
  identifiers?: Identifiers;
}

/** One step of the summarizer chain, as reported in the result's `_meta`. */
export interface Attempt {
  summarizer: SummarizerName | 'similar';
  outcome: 'used' | 'not available' | 'disabled' | 'failed';
  detail?: string;
  ms?: number;
}
