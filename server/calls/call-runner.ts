import type { CallToolResult } from '../util/mcp-types.js';
import type { CallScope } from '../upstream/client-features.js';
import type { Cancellation } from '../util/cancellation.js';
import type { CallContext, CallPipeline, SampleFn } from './pipeline.js';

/**
 * Who is calling: the MCP session (and its progress callback when the agent asked for progress),
 * its cancellation, and its own model when it offers sampling.
 */
export interface CallerContext extends CallScope {
  cancellation?: Cancellation;
  /** The client's own model, when it declared the sampling capability. */
  sample?: SampleFn;
}

/** One call to a power's tool as a handler asks for it; the runner adds the session and the timing. */
export type CallRequest = Pick<
  CallContext,
  'power' | 'tool' | 'calledAs' | 'args' | 'variant' | 'intent' | 'annotations' | 'proceed'
>;

export interface CallRunnerDeps {
  pipeline: CallPipeline;
  /** The power was used this turn (the idle rule counts turns). */
  noteTurn: (power: string) => void;
  /** A session's use of a tool credits the recommendation that named it (after the answer). */
  markUsed: (sessionId: string, name: string) => void;
  /** The spell's cache time for the tool's answers, when it opts in. */
  cacheTtlSeconds: (power: string, tool: string) => number | undefined;
}

/** Runs one call to a power's tool through the pipeline (record -> validate -> hints -> summarize -> forward). */
export class CallRunner {
  constructor(private readonly deps: CallRunnerDeps) {}

  run(call: CallRequest, caller: CallerContext): Promise<CallToolResult> {
    this.deps.noteTurn(call.power);
    this.deps.markUsed(caller.sessionId, `${call.power}:${call.tool}`);
    const cacheTtlSeconds = this.deps.cacheTtlSeconds(call.power, call.tool);
    // Every field named once, in one order: the stages then share one object shape (a spread of
    // `call` cost microseconds per call and left the context's shape to the caller's literal).
    const context = {
      power: call.power,
      tool: call.tool,
      calledAs: call.calledAs,
      args: call.args,
      sessionId: caller.sessionId,
      onprogress: caller.onprogress,
      startedAt: Date.now(),
      cancellation: caller.cancellation,
      variant: call.variant,
      intent: call.intent,
      annotations: call.annotations,
      validation: undefined,
      sample: caller.sample,
      proceed: call.proceed,
      audit: undefined,
      cacheTtlSeconds,
      suggested: undefined,
    } satisfies { [K in keyof Required<CallContext>]: CallContext[K] };
    return this.deps.pipeline.run(context);
  }
}
