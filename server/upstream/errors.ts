/** Errors from a power's server, each with a message that says what happened and what to do. */

/** A power's own JSON-RPC error answer to a call: the connection passes the SDK's error on as it is. */
export { ProtocolError } from '@modelcontextprotocol/client';

export type UpstreamErrorCode =
  | 'not_startable'
  /** Its launch definition (from the workspace or an imported config) awaits the user's approval. */
  | 'awaiting_approval'
  | 'start_failed'
  | 'backing_off'
  | 'gave_up'
  | 'timeout'
  | 'crashed'
  | 'result_too_large'
  | 'stopped'
  | 'call_failed'
  /** The tools could not be listed and compared with their pins before the call. */
  | 'unchecked'
  /** After the check, the policy refuses the tool. */
  | 'awaiting_review'
  | 'disabled'
  | 'blocked';

export class UpstreamError extends Error {
  constructor(
    readonly code: UpstreamErrorCode,
    readonly power: string,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}
