import type { SampleFn } from '../../calls/pipeline.js';

/** One result to summarize, with what the summarizers may use. */
export interface SummarizeRequest {
  power: string;
  tool: string;
  args: Record<string, unknown>;
  /** The result's full text. */
  raw: string;
  /** The calling client's model, when it declared sampling. */
  sample?: SampleFn;
  signal?: AbortSignal;
}
