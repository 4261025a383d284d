/**
 * Summarizer 2: VS Code's Language Model API, asked through the extension. The JSON-RPC layer sets
 * the function (Intel.setLanguageModel); until it does, or outside VS Code, it is "not available".
 */
import type { SummaryBody } from '../summary.js';
import { askModel } from './model-summarizer.js';
import { SYSTEM_PROMPT, summaryPrompt } from './prompt.js';
import type { SummarizeRequest } from './types.js';

/** Sends one prompt to a VS Code language model and resolves its whole text reply; rejects on refusal, rate limit or error. */
export type LanguageModelFn = (prompt: string, signal: AbortSignal) => Promise<string>;

export async function languageModelSummary(
  model: LanguageModelFn,
  request: SummarizeRequest,
  timeoutMs: number,
): Promise<SummaryBody> {
  const prompt = `${SYSTEM_PROMPT}\n\n${summaryPrompt(request.power, request.tool, request.args, request.raw)}`;
  return askModel((signal) => model(prompt, signal), timeoutMs, request.signal);
}
