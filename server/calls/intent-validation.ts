import type { ActivityDecision } from '../../protocol/records.js';
import { declaresReadOnly, type EffectiveAnnotations } from './annotations.js';
import { variantTool, type Intent, type OperationType } from './intent.js';

export interface Validation {
  decision: ActivityDecision;
  /** Why, for the agent and the activity log; empty when simply allowed. */
  message?: string;
}

const whose: Record<EffectiveAnnotations['source'], string> = {
  server: 'by its server',
  spell: 'by its spell file',
  user: 'by the user (confirmed read-only)',
  inferred: 'by Grimoire from its name or description (inferred; no annotation was given)',
  none: '',
};

/**
 * The intent-declaration matrix: the variant and the declared intent must agree, then the tool's
 * annotations must allow the variant. The read variant reaches only tools whose read-only status is
 * declared (by the server or a spell override); inferred annotations are advice, never permission.
 * With strict server validation off, the annotation checks warn instead of rejecting; a missing or
 * mismatched intent is always rejected.
 */
export function validateIntent(
  variant: OperationType,
  intent: Intent | undefined,
  tool: string,
  annotations: EffectiveAnnotations,
  strict: boolean,
): Validation {
  const declared = intent?.operation_type;
  if (!declared) {
    return {
      decision: 'rejected',
      message:
        `${variantTool(variant)} needs intent.operation_type: declare '${variant}' (with an optional reason ` +
        `and data_sensitivity) to call '${tool}'.`,
    };
  }
  if (declared !== variant) {
    return {
      decision: 'rejected',
      message:
        `${variantTool(variant)} was called with intent '${declared}': ` +
        `the variant and the intent must agree; use ${variantTool(declared)} for a ${declared} operation.`,
    };
  }
  const by = whose[annotations.source];
  const annotationCheck = (message: string): Validation =>
    strict
      ? { decision: 'rejected', message }
      : { decision: 'warned', message: `${message} (allowed: strict server validation is off)` };
  if (variant === 'read') {
    if (annotations.destructiveHint === true && annotations.readOnlyHint !== true)
      return annotationCheck(`Tool '${tool}' is marked destructive ${by}; use call_tool_destructive.`);
    if (annotations.readOnlyHint === false)
      return annotationCheck(`Tool '${tool}' is marked as not read-only ${by} (it writes); use call_tool_write.`);
    if (declaresReadOnly(annotations)) return { decision: 'allowed' };
    return annotationCheck(
      `'${tool}' does not declare itself read-only; call it with call_tool_write, or mark it read-only in a spell override` +
        (annotations.inferred && annotations.readOnlyHint === true
          ? ` (its name only suggests a read, which is not a declaration; ` +
            `the user can confirm it read-only once: 'grimoire tools confirm-read ${tool}' or the tool ` +
            `review in VS Code).`
          : '.'),
    );
  }
  if (variant === 'write') {
    if (declaresReadOnly(annotations))
      return {
        decision: 'warned',
        message: `Tool '${tool}' is marked read-only ${by}; call_tool_read would do. Allowed.`,
      };
    if (annotations.destructiveHint === true)
      return annotationCheck(`Tool '${tool}' is marked destructive ${by}; use call_tool_destructive.`);
    return { decision: 'allowed' };
  }
  // call_tool_destructive may call any tool (the user is asked first).
  if (variant === 'destructive') return { decision: 'allowed' };
  throw new Error(`no intent check for '${variant satisfies never}'`);
}
