/**
 * What a request asks to be done, and what a tool does, in the same words: the action groups of
 * the lexicon (find, read, create, update, delete, ...). A request's verb says which tool of a
 * power it wants ("save the notes to a file" is a write, not a listing of recent calls), and a
 * request with no verb of change asks for nothing to change.
 */
import { domainTags } from './domain-tags.js';
import {
  ACTION_VERBS,
  INDEFINITE_WORDS,
  LISTING_WORDS,
  NOUN_VERBS,
  NUMBER_WORDS,
  OPENING_VERBS,
  VERB_INTRODUCERS,
} from './lexicon/request-words.js';
import { stem } from '../text/stem.js';
import { words } from '../text/words.js';

/** A tag term cannot collide with a word or a domain tag: words never contain '!'. */
const TAG_PREFIX = '!';

/** The groups whose verbs change something (everything else finds, reads or examines). */
const CHANGING = new Set(['create', 'update', 'delete', 'write', 'run', 'undo']);

/** Each verb's action groups, by the verb as written (`VERB_GROUPS`) and by its stem (`GROUPS_OF`). */
const VERB_GROUPS = new Map<string, string[]>();
const GROUPS_OF = new Map<string, string[]>();
for (const [group, verbs] of Object.entries(ACTION_VERBS)) {
  for (const verb of verbs.split(' ')) {
    for (const [map, key] of [
      [VERB_GROUPS, verb],
      [GROUPS_OF, stem(verb)],
    ] as const) {
      const groups = map.get(key) ?? [];
      if (!groups.includes(group)) groups.push(group);
      map.set(key, groups);
    }
  }
}

/** Words that may open an imperative before its verb. */
const COURTESY = new Set(['please', 'now', 'just', 'quickly']);

const NOUNS_TOO = new Set(NOUN_VERBS.split(' '));
/** Their stems, for their participles ("logged", "recorded"). */
const NOUN_STEMS = new Set([...NOUNS_TOO].map(stem));
const INTRODUCERS = new Set(VERB_INTRODUCERS.split(' '));

/**
 * The groups a word names as a verb: the verb as written ("store"), or its past or present
 * participle ("stored", "creating"); never a noun that only stems like one ("settings", "logs"), as
 * query-terms.ts reads request words. A word that is as often a noun ("log", "record", "new") or
 * its participle names its groups only where a verb stands (`verbPosition`).
 */
function groupsOfWord(word: string, verbPosition: boolean): readonly string[] {
  const groups = VERB_GROUPS.get(word) ?? (/(?:ed|ing)$/.test(word) ? (GROUPS_OF.get(stem(word)) ?? []) : []);
  if (groups.length === 0 || verbPosition) return groups;
  return NOUNS_TOO.has(word) || NOUN_STEMS.has(stem(word)) ? [] : groups;
}

const OPENING = new Set(OPENING_VERBS.split(' '));
const INDEFINITE = new Set(INDEFINITE_WORDS.split(' '));

/**
 * The groups the word at `i` of a text names as a verb, as `groupsOfWord`, but for a verb that
 * opens what exists: before an indefinite article it creates ("open an issue", "open a new tab").
 */
function groupsAt(list: readonly string[], i: number, verbPosition: boolean): readonly string[] {
  const groups = groupsOfWord(list[i], verbPosition);
  return groups.length > 0 && OPENING.has(list[i]) && INDEFINITE.has(list[i + 1] ?? '') ? ['create'] : groups;
}

/** Words that open a clause about something the request names ("the files that were changed", "note that she moved"). */
const SUBORDINATORS = new Set(['that', 'which', 'who', 'whom', 'whose']);

/** Words after which a new action may follow a clause ("the file that has the notes, and delete it"). */
const CONJUNCTIONS = new Set(['and', 'then', 'or']);

/**
 * Which of a text's words stand where a verb stands: the first (after courtesy words), and any
 * after a word that introduces a verb ("to", "you", "and", "can").
 */
function verbPositions(list: readonly string[]): boolean[] {
  const opening = list.findIndex((word) => !COURTESY.has(word));
  return list.map((_, i) => i === opening || (i > 0 && INTRODUCERS.has(list[i - 1])));
}

/**
 * The action groups the words of a request name, each where it is a verb. A verb in a clause
 * about what the request names is what that thing did, not what the request asks ("add a note
 * that she moved", "delete the files that were modified"), unless a conjunction introduces it
 * anew ("... and delete it").
 */
function groupsOf(text: string): Set<string> {
  const list = words(text);
  const verbs = verbPositions(list);
  const inClause = clauseWords(text);
  return new Set(
    list.flatMap((_, i) =>
      inClause[i] && !(i > 0 && CONJUNCTIONS.has(list[i - 1])) ? [] : groupsAt(list, i, verbs[i]),
    ),
  );
}

/**
 * True for each of a text's words (as `words` gives them) in a clause about what the request
 * names, from its subordinator to the end of its sentence ("note that she moved to Berlin", "the
 * files that were modified last week"): what the thing is or did, the content of a fact to keep or
 * a condition on what to act on, not which tool acts.
 */
export function clauseWords(text: string): boolean[] {
  return text.split(/[.;:!?\n]+/).flatMap((sentence) => {
    const list = words(sentence);
    const start = list.findIndex((word, i) => i > 0 && SUBORDINATORS.has(word));
    return list.map((_, i) => start >= 0 && i >= start);
  });
}

/**
 * For each of a request's words: 'verb' when it is an action verb as it stands there ("list",
 * "delete"); 'verb-of-noun' for a verb that is as often a noun, standing as a verb ("log" in "log
 * my hours", "record" in "record that..."); false otherwise ("log" in "show the git log" is a subject).
 */
export function actionWords(list: readonly string[]): Array<'verb' | 'verb-of-noun' | false> {
  const verbs = verbPositions(list);
  return list.map((word, i) =>
    !VERB_GROUPS.has(word) ? false : !NOUNS_TOO.has(word) ? 'verb' : verbs[i] ? 'verb-of-noun' : false,
  );
}

/**
 * True when a request asks to keep a fact: a verb that writes, creates or keeps something is
 * followed by "that" and the fact ("remember that Alice works at Acme", "record that Alice
 * manages Bob", "save that the build is green").
 */
export function keepsAFact(list: readonly string[]): boolean {
  return list.some((word, i) => word === 'that' && i > 0 && keepingVerb(list[i - 1]));
}

function keepingVerb(word: string): boolean {
  return (
    groupsOfWord(word, true).some((group) => group === 'write' || group === 'create') || OTHER_CHANGES.has(stem(word))
  );
}

/**
 * The action tags of a request: one per group its verbs name; a fact to keep is created or written
 * ("remember that..."); a request that changes nothing and asks for a number of things asks for a
 * listing ("show the last ten commits").
 */
export function requestActionTags(query: string): string[] {
  const groups = groupsOf(query);
  if (keepsAFact(words(query))) for (const group of KEEPING) groups.add(group);
  if (asksForMany(words(query)) && !asksForChange(query)) groups.add(LISTING);
  return [...groups].map((group) => TAG_PREFIX + group);
}

/** The tag of a tool that gives many things at once, and of a request that asks for many. */
const LISTING = 'list';

const NUMBERS = new Set(NUMBER_WORDS.split(' '));
const LISTING_TOOL_WORDS = new Set(LISTING_WORDS.split(' '));

/**
 * True when a request asks for a number of things: a number above one before a plural ("the last
 * ten commits", "5 open issues"). A span of time is no number of things ("the last 7 days").
 */
export function asksForMany(list: readonly string[]): boolean {
  return list.some(
    (word, i) =>
      isCount(word) &&
      list.slice(i + 1, i + 3).some((next) => isPlural(next) && !domainTags([stem(next)]).has('#time')),
  );
}

/**
 * A word of a tool's name or description that says it gives many things: "list", "history", "log" where it is
 * no verb of writing (`log_event` logs).
 */
function listsMany(word: string, verbPosition: boolean): boolean {
  return LISTING_TOOL_WORDS.has(word) && !groupsOfWord(word, verbPosition).includes('write');
}

function isCount(word: string): boolean {
  return NUMBERS.has(word) || (/^\d+$/.test(word) && Number(word) > 1);
}

function isPlural(word: string): boolean {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss');
}

/** The groups of the tools that keep something: a fact to keep is created or written. */
const KEEPING = ['create', 'write'];

/**
 * The action tags of a tool: what its name says it does, and the verb its description opens with
 * ("View commit history..." for `git_log`), which names the action when the name does not. In a
 * name, a verb that is as often a noun counts only first (`log_event` logs; `git_log` is a log,
 * `get_record` reads a record). The description's opening word is where its verb stands, in any
 * form ("Creates", "Logs"), after the power's own name when it opens with that ("Notion | Create
 * a page").
 */
export function toolActionTags(name: string, lead: string, powerName = ''): string[] {
  const nameWords = words(name);
  const own = new Set(words(powerName));
  const leadWords = words(lead).filter((word) => !own.has(word));
  const groups = [...nameWords.flatMap((word, i) => groupsOfWord(word, i === 0)), ...leadGroups(leadWords)];
  if ([nameWords, leadWords].some((list) => list.some((word, i) => listsMany(word, i === 0)))) groups.push(LISTING);
  return [...new Set(groups)].map((group) => TAG_PREFIX + group);
}

/**
 * Verbs that carry no action of their own: the noun after them does ("Make line-based edits",
 * "Perform click on a web page", "Take a screenshot").
 */
const LIGHT_VERBS = new Set([
  'make',
  'makes',
  'perform',
  'performs',
  'do',
  'does',
  'take',
  'takes',
  'give',
  'gives',
  'apply',
  'applies',
]);

/** How far after a light verb its noun may stand ("Make line-based edits"). */
const LIGHT_REACH = 4;

/** The groups of a description's opening verb, or, after a light verb, of the action its noun names ("edits": update). */
function leadGroups(list: readonly string[]): readonly string[] {
  const opening = list[0] ?? '';
  if (OPENING.has(opening) && INDEFINITE.has(list[1] ?? '')) return ['create'];
  if (!LIGHT_VERBS.has(opening)) return openingGroups(opening);
  for (const word of list.slice(1, 1 + LIGHT_REACH)) {
    const groups = GROUPS_OF.get(stem(word));
    if (groups) return groups;
  }
  return [];
}

/**
 * The groups of a description's opening verb, written as the lexicon has it, in a participle, or in the third
 * person ("creates", "pushes").
 */
function openingGroups(word: string): readonly string[] {
  const written = groupsOfWord(word, true);
  if (written.length > 0 || !word.endsWith('s')) return written;
  return (
    VERB_GROUPS.get(word.slice(0, -1)) ?? (word.endsWith('es') ? VERB_GROUPS.get(word.slice(0, -2)) : undefined) ?? []
  );
}

/** The verbs of a tool's name, as the stems its name terms have: what its action tags already match. */
export function nameVerbTerms(name: string): Set<string> {
  return new Set(
    words(name)
      .filter((word, i) => groupsOfWord(word, i === 0).length > 0)
      .map(stem),
  );
}

/**
 * Everyday verbs that ask for a change though no tool is named after them ("remember that...",
 * "switch to the branch", "kill the process", "click the button"): they only say that a request is
 * not a read, and are no action of their own to match a tool by.
 */
const OTHER_WORDS =
  'remember forget switch kill terminate stop cancel click fill press submit install close navigate go rewrite'.split(
    ' ',
  );
const OTHER_CHANGES = new Set(OTHER_WORDS.map(stem));
const OTHER_AS_WRITTEN = new Set(OTHER_WORDS);

/**
 * The other changes a request's words ask for, by stem: a verb as written anywhere ("kill the
 * process"), in another form only where a verb stands ("I stopped the server"), so "the closed
 * issues" and "the bus stops" ask for nothing.
 */
function otherChanges(query: string): string[] {
  const list = words(query);
  const verbs = verbPositions(list);
  return list.flatMap((word, i) =>
    OTHER_AS_WRITTEN.has(word) || (verbs[i] && OTHER_CHANGES.has(stem(word))) ? [stem(word)] : [],
  );
}

/** True when a request names an action that changes something (creates, updates, deletes, writes, runs, undoes, or another change). */
export function asksForChange(query: string): boolean {
  return [...groupsOf(query)].some((group) => CHANGING.has(group)) || otherChanges(query).length > 0;
}

/** The groups whose verbs only find, read or examine. */
const READING = new Set(['find', 'read', 'analyze']);

/**
 * True when a request asks to read and nothing else: a question, or an imperative that opens
 * with a verb that finds, reads or examines and names no change ("show the last ten commits",
 * "list my open pull requests"). Only the opening verb counts as the request's action: in "can
 * you get a t-shirt printed", "get" is not asking to read.
 */
export function asksToRead(query: string): boolean {
  if (asksQuestion(query)) return true;
  const list = words(query);
  const opening = list.findIndex((word) => !COURTESY.has(word));
  return opening >= 0 && !asksForChange(query) && groupsAt(list, opening, true).some((group) => READING.has(group));
}

/**
 * The kinds of action a request names: its verbs' action groups and the other changes it asks for
 * by their own word ("close", "remember").
 */
export function requestVerbs(query: string): Set<string> {
  return new Set([...groupsOf(query), ...otherChanges(query)]);
}

/** Two requests ask for the same kind of action unless both name one and they share none ("close issue #12" is not "open an issue"). */
export function sameKindOfAction(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return true;
  return [...a].some((verb) => b.has(verb));
}

/** Words that open a question about something (not "can you...", which asks for an action). */
const QUESTION_WORDS = new Set('what which who whom whose when where why how'.split(' '));

/** True when a request is a question: it opens with a question word ("what do you remember about Alice?"). */
export function asksQuestion(query: string): boolean {
  return QUESTION_WORDS.has(words(query)[0] ?? '');
}
