import type { CallToolResult, CreateMessageRequest, CreateMessageResult } from '../util/mcp-types.js';
import type { EffectiveAnnotations } from './annotations.js';
import type { Intent, OperationType } from './intent.js';
import type { Validation } from './intent-validation.js';
import type { CallScope } from '../upstream/client-features.js';
import type { Cancellation } from '../util/cancellation.js';

/** Asks the connected MCP client's own model for a completion (MCP sampling). */
export type SampleFn = (
  params: CreateMessageRequest['params'],
  options?: { timeoutMs?: number },
) => Promise<CreateMessageResult>;

/**
 * Everything a stage may need to know about one call to a power's tool. It is the call's scope
 * too (session and progress): the upstream stage hands it to the power's connection.
 */
export interface CallContext extends CallScope {
  power: string;
  tool: string;
  /** The name the agent used (`<power>__<tool>` or a gateway call tool). */
  calledAs: string;
  args: Record<string, unknown>;
  sessionId: string;
  startedAt: number;
  cancellation?: Cancellation;
  /** 'direct' for `<power>__<tool>`; the declared variant for call_tool_read / _write / _destructive. */
  variant: 'direct' | OperationType;
  intent?: Intent;
  annotations: EffectiveAnnotations;
  /** Set by the validation stage. */
  validation?: Validation;
  /** Present when the calling client declared the sampling capability. */
  sample?: SampleFn;
  /** The agent chose to run the call although a prerequisite was suggested. */
  proceed?: boolean;
  /** Set by the hints stage for tools a spell marks `audit: true`. */
  audit?: boolean;
  /** Set when the tool's spell opts in to answering identical calls from the cache (`cache: { ttlSeconds }`). */
  cacheTtlSeconds?: number;
  /** Set by the hints stage when it answered with a suggestion instead of calling the tool. */
  suggested?: boolean;
}

export type Next = () => Promise<CallToolResult>;
export type Stage = (context: CallContext, next: Next) => Promise<CallToolResult>;

/**
 * The call pipeline: stages run in order, each may act before and after the rest of the chain
 * (validate -> hints -> upstream call -> summarize -> record). The last stage answers the call.
 */
export class CallPipeline {
  constructor(private readonly stages: Stage[]) {}

  run(context: CallContext): Promise<CallToolResult> {
    const step = (index: number): Promise<CallToolResult> => {
      const stage = this.stages[index];
      if (!stage) return Promise.reject(new Error(`call pipeline ended without an answer for ${context.calledAs}`));
      return stage(context, () => step(index + 1));
    };
    return step(0);
  }
}
