/**
 * Words that shape a request without naming what it is about. They still count, but much less
 * than the subject words: "provide detailed information about migraines" is about migraines.
 */
export const GENERIC_REQUEST_WORDS =
  'provide providing information info detail details detailed specific specifically particular certain various ' +
  'several different comprehensive complete full overall general including include includes related regarding ' +
  'appropriate suitable relevant useful good great best better new latest recent current possible potential ' +
  'available assist assistance support guidance advice ensure make made making give giving tell telling know ' +
  'knowing understand understanding explain share show showing look looking seek seeking interested curious ' +
  'wondering recommend recommendation recommendations suggest suggestion suggestions option options idea ideas ' +
  'important quick quickly easy easily simple exactly whole real sometime today tomorrow soon please request ' +
  'first last next previous called named titled now right away';

/** What a request wants done; the recommendation design's action verbs, grouped by intent. */
export const ACTION_VERBS: Record<string, string> = {
  find: 'find search look lookup locate query discover browse explore',
  read: 'read get fetch retrieve open view display list show load inspect',
  create: 'create add make new generate build compose draft insert register',
  update: 'update edit modify change rename move set patch replace fix',
  delete: 'delete remove drop erase clear purge destroy uninstall',
  write: 'write save store upload record log post publish send',
  analyze: 'analyze analyse analysis compare evaluate assess review summarize measure check calculate',
  test: 'test verify validate debug diagnose',
  run: 'run execute start launch trigger deploy',
  undo: 'undo revert reset rollback restore',
};

/**
 * Verbs of the groups above that are as often a noun or an adjective: "the git log", "a record",
 * "a blog post", "the new issues", "the last build", "a workflow run". One is a verb only where a
 * verb stands: opening a request or a tool description, after a word that introduces a verb ("to
 * log", "you stored", "and then post"), or first in a tool's name (`log_event`, not `git_log`).
 */
export const NOUN_VERBS =
  'new draft build register change move set patch fix drop clear record log post store upload run start launch trigger reset';

/**
 * Verbs that read what exists when it is named ("open the file", "open issue #12") and bring it into
 * being when an indefinite article introduces it ("open an issue", "open a new tab"): there they create.
 */
export const OPENING_VERBS = 'open opens opening';

/** Words that introduce something not there yet. */
export const INDEFINITE_WORDS = 'a an new another';

/** Number words: a request for a number of things ("the last ten commits") asks for a listing of them. */
export const NUMBER_WORDS =
  'two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred dozen';

/** Words that say a tool gives many things at once: a list, a history, a log of them. */
export const LISTING_WORDS = 'list lists listing history histories log logs';

/** Words after which a verb stands: "to", a subject pronoun, a modal, a conjunction. */
export const VERB_INTRODUCERS = 'to and then or please you i we also just can could would will should must let lets ll';
