/** Summarizer 1: the connected MCP client's own model, through MCP sampling (sampling/createMessage). */
import type { SampleFn } from '../../calls/pipeline.js';
import type { SummaryBody } from '../summary.js';
import { askModel } from './model-summarizer.js';
import { SYSTEM_PROMPT, summaryPrompt } from './prompt.js';
import type { SummarizeRequest } from './types.js';

const MAX_REPLY_TOKENS = 800;

export async function samplingSummary(
  sample: SampleFn,
  request: SummarizeRequest,
  timeoutMs: number,
): Promise<SummaryBody> {
  return askModel(
    async () => {
      const result = await sample(
        {
          messages: [
            {
              role: 'user',
              content: { type: 'text', text: summaryPrompt(request.power, request.tool, request.args, request.raw) },
            },
          ],
          systemPrompt: SYSTEM_PROMPT,
          maxTokens: MAX_REPLY_TOKENS,
          temperature: 0,
          includeContext: 'none',
          modelPreferences: { speedPriority: 0.8, costPriority: 0.7, intelligencePriority: 0.4 },
        },
        // The SDK's own request timeout is a backstop: ours fires first and says what happened.
        { timeoutMs: timeoutMs + 1_000 },
      );
      if (result.content.type !== 'text')
        throw new Error(`the client's model answered with ${result.content.type} content, not text`);
      return result.content.text;
    },
    timeoutMs,
    request.signal,
  );
}
