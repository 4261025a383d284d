import type { ToolAnnotations } from '../util/mcp-types.js';
import { stem } from '../text/stem.js';
import { words } from '../text/words.js';

/** 'user': the user confirmed once that this version of the tool only reads (server/trust/read-confirmations.ts). */
export type AnnotationSource = 'server' | 'spell' | 'user' | 'inferred' | 'none';

/** The hints validation trusts for a tool, and where they came from. */
export interface EffectiveAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  source: AnnotationSource;
  /** True when Grimoire guessed them from the tool's name and description. */
  inferred?: true;
}

const WRITE_VERBS =
  'create update write edit set add insert put patch move rename upload send post save modify append ' +
  'commit push merge deploy publish apply replace register store change toggle start stop run execute ' +
  'trigger enable disable install assign mark fork';
const verbs = (list: string) => new Set(list.split(' ').map(stem));
/** The write verbs as written, for the words after a tool name's leading verb (there, "commits" is a noun). */
const WRITE_FORMS = new Set(WRITE_VERBS.split(' '));
const DESTRUCTIVE = verbs(
  'delete remove drop destroy purge erase wipe truncate kill terminate revoke uninstall unlink rm del prune reset overwrite',
);
const WRITE = verbs(WRITE_VERBS);
const READ = verbs(
  'get list read search find query fetch describe show view count check lookup inspect retrieve ' +
    'download open browse explore summarize status convert calculate compute compare validate parse ' +
    'analyze estimate',
);

/**
 * Annotations a spell file sets win over the server's; where neither says whether the tool reads or
 * writes, the user's confirmation that it only reads decides; else they are inferred from the tool's
 * name (then its description): delete/remove/... destructive, create/update/... write,
 * get/list/read/... read-only. Inference can be switched off.
 */
export function effectiveAnnotations(
  tool: { name: string; description?: string; annotations?: ToolAnnotations },
  spellOverride: ToolAnnotations | undefined,
  inferWhenMissing: boolean,
  confirmedRead = false,
): EffectiveAnnotations {
  const known = decided.get(tool);
  if (
    known &&
    known.spellOverride === spellOverride &&
    known.inferWhenMissing === inferWhenMissing &&
    known.confirmedRead === confirmedRead
  )
    return known.annotations;
  const annotations = Object.freeze(decide(tool, spellOverride, inferWhenMissing, confirmedRead));
  decided.set(tool, { spellOverride, inferWhenMissing, confirmedRead, annotations });
  return annotations;
}

/** Per tool object (a new listing makes new ones): what was decided, and from what. */
const decided = new WeakMap<
  object,
  {
    spellOverride: ToolAnnotations | undefined;
    inferWhenMissing: boolean;
    confirmedRead: boolean;
    annotations: EffectiveAnnotations;
  }
>();

function decide(
  tool: { name: string; description?: string; annotations?: ToolAnnotations },
  spellOverride: ToolAnnotations | undefined,
  inferWhenMissing: boolean,
  confirmedRead: boolean,
): EffectiveAnnotations {
  const hints = (a?: ToolAnnotations) => ({
    ...(a?.readOnlyHint !== undefined ? { readOnlyHint: a.readOnlyHint } : {}),
    ...(a?.destructiveHint !== undefined ? { destructiveHint: a.destructiveHint } : {}),
    ...(a?.idempotentHint !== undefined ? { idempotentHint: a.idempotentHint } : {}),
    ...(a?.openWorldHint !== undefined ? { openWorldHint: a.openWorldHint } : {}),
  });
  const fromServer = hints(tool.annotations);
  const fromSpell = hints(spellOverride);
  if (Object.keys(fromSpell).length > 0) return { ...fromServer, ...fromSpell, source: 'spell' };
  if (fromServer.readOnlyHint !== undefined || fromServer.destructiveHint !== undefined)
    return { ...fromServer, source: 'server' };
  if (confirmedRead) return { ...fromServer, readOnlyHint: true, source: 'user' };
  if (!inferWhenMissing) return { ...fromServer, source: 'none' };
  const inferred = inferAnnotations(tool.name, tool.description ?? '');
  return inferred
    ? { ...fromServer, ...inferred, source: 'inferred', inferred: true }
    : { ...fromServer, source: 'none' };
}

/**
 * A tool's name says what it does by its leading verb ("list_commits" lists; "commits" is what).
 * The name decides, else the description's first words; a destructive word anywhere asks for care.
 * A read whose description leads with another verb ("query: Execute a raw SQL query") or whose name
 * also carries a bare write verb ("search_and_replace") is not taken for a read.
 */
export function inferAnnotations(
  name: string,
  description: string,
): Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint'> | undefined {
  const fromName = classify(words(name));
  const fromDescription = classify(words(description).slice(0, 3));
  if (fromName?.readOnlyHint === true && fromDescription && fromDescription.readOnlyHint !== true)
    return fromDescription;
  return fromName ?? fromDescription;
}

function classify(list: string[]): Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint'> | undefined {
  if (list.some((w) => DESTRUCTIVE.has(stem(w)))) return { readOnlyHint: false, destructiveHint: true };
  const lead = list.findIndex((w) => WRITE.has(stem(w)) || READ.has(stem(w)));
  if (lead < 0) return undefined;
  if (WRITE.has(stem(list[lead]))) return { readOnlyHint: false, destructiveHint: false };
  // After the leading verb, only a verb as such ("replace", not "commits" or "settings") tells of a write.
  if (list.slice(lead + 1).some((w) => WRITE_FORMS.has(w))) return { readOnlyHint: false, destructiveHint: false };
  return { readOnlyHint: true };
}

/** Read-only as declared by the tool's server or a spell override, or confirmed by the user (never inferred). */
export function declaresReadOnly(annotations: EffectiveAnnotations): boolean {
  return (
    annotations.readOnlyHint === true &&
    (annotations.source === 'server' || annotations.source === 'spell' || annotations.source === 'user')
  );
}

/** Grimoire believes the tool only reads (from its name), but nobody declared it: the user may confirm it once. */
export function looksReadOnly(annotations: EffectiveAnnotations): boolean {
  return annotations.source === 'inferred' && annotations.readOnlyHint === true;
}

/**
 * The call variant that fits a tool: destructive when marked so (inference counts: it only ever
 * asks for more care), read only when read-only is declared, else write.
 */
export function callWith(
  annotations: EffectiveAnnotations,
): 'call_tool_destructive' | 'call_tool_read' | 'call_tool_write' {
  if (annotations.destructiveHint === true && annotations.readOnlyHint !== true) return 'call_tool_destructive';
  if (declaresReadOnly(annotations)) return 'call_tool_read';
  return 'call_tool_write';
}
