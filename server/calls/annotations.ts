import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { stem, words } from '../resolve/text.js';

export type AnnotationSource = 'server' | 'spell' | 'inferred' | 'none';

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

const verbs = (list: string) => new Set(list.split(' ').map(stem));
const DESTRUCTIVE = verbs('delete remove drop destroy purge erase wipe truncate kill terminate revoke uninstall unlink rm del prune reset overwrite');
const WRITE = verbs(
  'create update write edit set add insert put patch move rename upload send post save modify append commit push merge deploy publish apply replace register store change toggle start stop run execute trigger enable disable install assign mark',
);
const READ = verbs('get list read search find query fetch describe show view count check lookup inspect retrieve download open browse explore summarize status');

/**
 * Annotations a spell file sets win over the server's; where neither gives any, they are inferred
 * from the tool's name (then its description): delete/remove/... destructive, create/update/...
 * write, get/list/read/... read-only. Inference can be switched off.
 */
export function effectiveAnnotations(
  tool: { name: string; description?: string; annotations?: ToolAnnotations },
  spellOverride: ToolAnnotations | undefined,
  inferWhenMissing: boolean,
): EffectiveAnnotations {
  const known = decided.get(tool);
  if (known && known.spellOverride === spellOverride && known.inferWhenMissing === inferWhenMissing) return known.annotations;
  const annotations = Object.freeze(decide(tool, spellOverride, inferWhenMissing));
  decided.set(tool, { spellOverride, inferWhenMissing, annotations });
  return annotations;
}

/** Per tool object (a new listing makes new ones): what was decided, and from what. */
const decided = new WeakMap<object, { spellOverride: ToolAnnotations | undefined; inferWhenMissing: boolean; annotations: EffectiveAnnotations }>();

function decide(
  tool: { name: string; description?: string; annotations?: ToolAnnotations },
  spellOverride: ToolAnnotations | undefined,
  inferWhenMissing: boolean,
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
  if (fromServer.readOnlyHint !== undefined || fromServer.destructiveHint !== undefined) return { ...fromServer, source: 'server' };
  if (!inferWhenMissing) return { ...fromServer, source: 'none' };
  const inferred = inferAnnotations(tool.name, tool.description ?? '');
  return inferred ? { ...fromServer, ...inferred, source: 'inferred', inferred: true } : { ...fromServer, source: 'none' };
}

export function inferAnnotations(name: string, description: string): Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint'> | undefined {
  return classify(words(name)) ?? classify(words(description).slice(0, 3));
}

function classify(words: string[]): Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint'> | undefined {
  const list = words.map(stem);
  if (list.some((w) => DESTRUCTIVE.has(w))) return { readOnlyHint: false, destructiveHint: true };
  if (list.some((w) => WRITE.has(w))) return { readOnlyHint: false, destructiveHint: false };
  if (list.some((w) => READ.has(w))) return { readOnlyHint: true };
  return undefined;
}

/** Read-only as declared by the tool's server or a spell override (never inferred). */
export function declaresReadOnly(annotations: EffectiveAnnotations): boolean {
  return annotations.readOnlyHint === true && (annotations.source === 'server' || annotations.source === 'spell');
}

/**
 * The call variant that fits a tool: destructive when marked so (inference counts: it only ever
 * asks for more care), read only when read-only is declared, else write.
 */
export function callWith(annotations: EffectiveAnnotations): 'call_tool_destructive' | 'call_tool_read' | 'call_tool_write' {
  if (annotations.destructiveHint === true && annotations.readOnlyHint !== true) return 'call_tool_destructive';
  if (declaresReadOnly(annotations)) return 'call_tool_read';
  return 'call_tool_write';
}
