/**
 * What a model summarizer is asked, and how its reply is checked: JSON with 3-5 key findings and
 * a list of actionable insights, nothing else. Anything else is a failed attempt.
 */
import { z } from 'zod';
import type { SummaryBody } from '../summary.js';

/** The head of the result a model is shown; the rest is in the artifact. */
export const PROMPT_RESULT_CHARS = 24_000;

export const SYSTEM_PROMPT =
  'You summarize the result of a tool call for an AI agent that has limited context. ' +
  'Reply with one JSON object and nothing else: {"keyFindings": [3 to 5 short strings], "actionableInsights": [0 to 3 short strings]}. ' +
  'Key findings state what the result contains, with the concrete names, ids, paths, numbers and errors the agent will need. ' +
  'Actionable insights say what the agent should do next, if anything. Do not invent anything that is not in the result.';

export function summaryPrompt(power: string, tool: string, args: Record<string, unknown>, raw: string): string {
  const shown =
    raw.length > PROMPT_RESULT_CHARS
      ? `${raw.slice(0, PROMPT_RESULT_CHARS)}\n[... ${raw.length - PROMPT_RESULT_CHARS} more characters not shown]`
      : raw;
  return [
    `Tool: ${power}:${tool}`,
    `Arguments: ${JSON.stringify(args).slice(0, 1_000)}`,
    `Result (${raw.length} characters):`,
    '<<<RESULT',
    shown,
    'RESULT>>>',
    'Reply with the JSON object only.',
  ].join('\n');
}

const replySchema = z.object({
  keyFindings: z.array(z.string().min(1).max(1_000)).min(3).max(8),
  actionableInsights: z.array(z.string().min(1).max(1_000)).max(8).default([]),
});

/** The summary in a model's reply, or an Error saying what is wrong with it. */
export function parseModelReply(reply: string): SummaryBody | Error {
  const text = reply
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return new Error('the reply holds no JSON object');
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch (error) {
    return new Error(`the reply is not valid JSON (${(error as Error).message})`);
  }
  const parsed = replySchema.safeParse(json);
  if (!parsed.success)
    return new Error(
      `the reply does not have the expected shape (` +
        `${parsed.error.issues.map((i) => `${i.path.join('.') || 'reply'}: ${i.message}`).join('; ')})`,
    );
  return {
    keyFindings: parsed.data.keyFindings.slice(0, 5).map((s) => s.trim()),
    actionableInsights: parsed.data.actionableInsights.slice(0, 3).map((s) => s.trim()),
  };
}
