import { Bm25fIndex, type FieldSpec, type IndexedDocument, type TermMatch, type WeightedTerm } from '../text/bm25f.js';
import { domainTagTerms, domainTags } from './domain-tags.js';
import { bigrams, queryTerms } from './query-terms.js';
import {
  asksForChange,
  asksQuestion,
  asksToRead,
  nameVerbTerms,
  requestActionTags,
  requestVerbs,
  sameKindOfAction,
  toolActionTags,
} from './request-actions.js';
import { leadAndRest } from '../text/words.js';
import { terms } from '../text/terms.js';
import type { LearnedText, MatchType, PowerDocument } from './types.js';

/**
 * Requests that led to a successful use weigh between a description and a name: they are the
 * user's own words for the power, but one request also says things the power has nothing to do with.
 */
const LEARNED_WEIGHT = 1;

/**
 * A power's tools' descriptions count by their first sentences, what each tool does; the rest of
 * them (how and when to call, "prefer X over Y", "note that...") counts a fifth of that: a server
 * whose long tool prose happens to say "prefer" or "note" is not about preferences or notes.
 */
const POWER_FIELDS: Record<string, FieldSpec> = {
  name: { weight: 3, b: 0.3 },
  keywords: { weight: 2.5, b: 0.3 },
  description: { weight: 0.5, b: 0.75 },
  toolNames: { weight: 4, b: 0.5 },
  toolDescriptions: { weight: 0.5, b: 0.75 },
  toolProse: { weight: 0.1, b: 0.75 },
  parameters: { weight: 0.3, b: 0.5 },
  domains: { weight: 1, b: 0.5 },
  phrases: { weight: 1, b: 0.5 },
  learned: { weight: LEARNED_WEIGHT, b: 0.75 },
};

/**
 * A tool is ranked by what it says it does. Its parameter names are not a field: in one tool's short
 * text a generic input name ("path", "query", "name", "time") would weigh like a word of its
 * description, so a tool that merely takes a `date` would outrank the one whose description is
 * about the request. They only break ties (`paramHits`). A power's parameter names, pooled over
 * all its tools and weighted low, stay evidence of what data the server handles.
 */
const TOOL_FIELDS: Record<string, FieldSpec> = {
  name: { weight: 3, b: 0.3 },
  lead: { weight: 1.5, b: 0.5 },
  description: { weight: 1, b: 0.75 },
  power: { weight: 0.6, b: 0.75 },
  domains: { weight: 1, b: 0.5 },
  actions: { weight: 2, b: 0 },
  learned: { weight: LEARNED_WEIGHT, b: 0.75 },
};

/**
 * The fields in which a document declares what it is (its name, its author's keywords), as
 * opposed to what it describes: a request word matched there is stronger evidence.
 */
const IDENTITY_FIELDS = new Set(['name', 'keywords']);

/*
 * A match can land on words the document does not declare itself by: a power's tools' prose (and
 * the domains and phrases only that prose signals) and its parameter names; a tool's parameter
 * names. A power whose tool texts mention "reason" and "logic" in passing is not a reasoning
 * power; a tool with a `year` parameter is not about years.
 */
const NONE: ReadonlySet<string> = new Set();

/** A document, with the terms it declares itself by: a match on any other term is in passing. */
interface SearchDocument extends IndexedDocument {
  declared: Set<string>;
}

const FIELD_MATCH_TYPE: Record<string, MatchType> = {
  name: 'name',
  keywords: 'keyword',
  description: 'description',
  toolNames: 'tool',
  toolDescriptions: 'tool',
  toolProse: 'tool',
  parameters: 'tool',
  power: 'description',
  lead: 'description',
  actions: 'tool',
  domains: 'description',
  phrases: 'description',
  learned: 'learned',
};

/**
 * BM25's saturation. Higher than the textbook 1.2 because BM25F's pseudo-frequency already
 * carries the field weights (a title hit counts 3).
 */
const K1 = 2;

/**
 * How much of a subject word a match on the domain it signals covers: "add a note to Carol's
 * entry" is in part about a memory power that matched only #memory, which "note" signals; the
 * word itself it did not say.
 */
const DOMAIN_COVER = 0.5;

/** At tool level, the share of a tool's score that comes from its power's relevance. */
const POWER_MIX = 0.5;

/** At tool level, how much the request saying a tool's own name words adds (relative to the best tool's score). */
const NAME_MIX = 0.1;

/** One document's lexical match, before fusion and calibration. */
export interface LexicalCandidate {
  name: string;
  /** Raw BM25F score, comparable only within one query. */
  score: number;
  /** The score over the best score this query's catalog-known words could reach (0..1). */
  normalized: number;
  /**
   * IDF-weighted share of the query's catalog-known subject words that this document matched, half for a word
   * whose domain only it matched (0..1).
   */
  coverage: number;
  /** The share of the score from terms matched mostly in the document's name or keywords (0..1). */
  identity: number;
  /** The share of the score from terms matched only in passing: tool descriptions, parameter names (0..1). */
  incidental: number;
  /** For a tool: how much of the query its parameter names have (IDF-weighted), to break ties between tools that score alike. */
  paramHits?: number;
  matchType: MatchType;
  matchedTerms: string[];
}

/**
 * Lexical relevance: BM25F over each power's fields (name, keywords, description, tool names,
 * tool descriptions, parameter names) and, for tool ranking, over each tool's own fields.
 */
export class LexicalResolver {
  private readonly powers = new Bm25fIndex(POWER_FIELDS, K1);
  private readonly tools = new Bm25fIndex(TOOL_FIELDS, K1);
  /** The same tools without what they learned: for a request whose action none of a tool's learned requests asked for. */
  private readonly unlearnedTools = new Bm25fIndex(TOOL_FIELDS, K1);

  /** The kinds of action each tool's learned requests asked for, by tool id (only tools that learned). */
  private learnedVerbs = new Map<string, Array<Set<string>>>();

  /** Requests seen before (by request key) and the power, or tool id, that worked for them. */
  private rememberedPowers = new Map<string, string>();
  private rememberedTools = new Map<string, string>();

  /** Each tool id's power. */
  private powerOfTool = new Map<string, string>();

  /** The terms each power and each tool declares itself by. */
  private declaredPower = new Map<string, Set<string>>();
  private declaredTool = new Map<string, Set<string>>();

  /** The tools that write (and whether they destroy), by id, with the terms and actions of their names. */
  private changingTools = new Map<string, { destructive: boolean; nameTerms: string[] }>();

  /** Each tool id's name terms but its verbs (its actions match those) and its power's name's. */
  private ownNameTerms = new Map<string, string[]>();

  /** Each tool id's parameter-name terms. */
  private toolParameters = new Map<string, Set<string>>();

  /** Analysed documents by content: a re-index analyses only the powers whose text changed. */
  private analysed = new Map<string, AnalysedPower>();

  index(documents: PowerDocument[]): void {
    const next = new Map<string, AnalysedPower>();
    const analysed = documents.map((doc) => {
      const key = JSON.stringify(doc);
      const entry = this.analysed.get(key) ?? next.get(key) ?? analysePower(doc);
      next.set(key, entry);
      return entry;
    });
    this.analysed = next;
    this.powerOfTool = new Map(
      analysed.flatMap((entry) => entry.tools.map((tool) => [tool.id, entry.power.id] as const)),
    );
    this.declaredPower = new Map(analysed.map((entry) => [entry.power.id, entry.power.declared]));
    this.declaredTool = new Map(
      analysed.flatMap((entry) => entry.tools.map((tool) => [tool.id, tool.declared] as const)),
    );
    this.changingTools = new Map(
      analysed.flatMap((entry) =>
        entry.tools.flatMap((tool) =>
          tool.writes || tool.destructive
            ? [[tool.id, { destructive: tool.destructive, nameTerms: tool.nameTerms }] as const]
            : [],
        ),
      ),
    );
    this.toolParameters = new Map(
      analysed.flatMap((entry) => entry.tools.map((tool) => [tool.id, tool.parameters] as const)),
    );
    this.ownNameTerms = new Map(
      analysed.flatMap((entry) => entry.tools.map((tool) => [tool.id, tool.ownName] as const)),
    );
    this.powers.build(analysed.map((entry) => entry.power));
    this.tools.build(analysed.flatMap((entry) => entry.tools));
    this.learnedVerbs = new Map(
      analysed.flatMap((entry) =>
        entry.tools.filter((tool) => tool.learnedVerbs.length > 0).map((tool) => [tool.id, tool.learnedVerbs] as const),
      ),
    );
    this.unlearnedTools.build(
      this.learnedVerbs.size > 0
        ? analysed.flatMap((entry) => entry.tools.map((tool) => ({ ...tool, fields: { ...tool.fields, learned: [] } })))
        : [],
    );
    this.rememberedPowers = new Map();
    this.rememberedTools = new Map();
    const best = new Map<string, number>();
    for (const entry of analysed.flatMap((a) => a.remembered)) {
      const slot = `${entry.tool ? 'tool' : 'power'}\u0000${entry.key}`;
      if (!entry.key || (best.get(slot) ?? -1) >= entry.weight) continue;
      best.set(slot, entry.weight);
      (entry.tool ? this.rememberedTools : this.rememberedPowers).set(entry.key, entry.id);
    }
  }

  private readonly declaredOfPower = (id: string) => this.declaredPower.get(id) ?? NONE;

  /** Every power, best first (those that matched nothing last, in index order). */
  rankPowers(query: string): LexicalCandidate[] {
    const matched = rememberedFirst(
      rankIndex(this.powers, queryTerms(query), this.declaredOfPower),
      this.rememberedPowers.get(requestKeyOf(query)),
    );
    const seen = new Set(matched.map((c) => c.name));
    const unmatched = this.powers.allIds().filter((id) => !seen.has(id));
    return [
      ...matched,
      ...unmatched.map((name) => ({
        name,
        score: 0,
        normalized: 0,
        coverage: 0,
        identity: 0,
        incidental: 0,
        matchType: 'description' as const,
        matchedTerms: [],
      })),
    ];
  }

  /**
   * The tools that matched the query, or whose power did, best first, named by their ids. Each
   * tool's score is mixed with its power's (both relative to the best of their ranking): a tool
   * named "search" is the right one when its power is about what the request is about.
   */
  rankTools(query: string): LexicalCandidate[] {
    // A question's verbs say what it asks about ("what files did the pull request change?", "who
    // wrote line 40?"), not an action to take: it asks to read, and names no tool by its action.
    const actions = asksQuestion(query) ? [] : requestActionTags(query);
    const weighted = [...queryTerms(query), ...actions.map((term) => ({ term, weight: 1 }))];
    const remembered = this.rememberedTools.get(requestKeyOf(query));
    const tools = this.withoutOtherActions(
      query,
      rankIndex(this.tools, weighted, (id) => this.declaredTool.get(id) ?? NONE),
      weighted,
    );
    const powers = rankIndex(this.powers, weighted, this.declaredOfPower);
    const bestTool = tools[0]?.score ?? 0;
    const bestPower = powers[0]?.score ?? 0;
    if (bestTool <= 0 && bestPower <= 0) return rememberedFirst(tools, remembered);
    // When only powers matched (on their tools' parameter names), their tools still rank by them.
    const scale = bestTool > 0 ? bestTool : 1;
    const powerShare = new Map(powers.map((p) => [p.name, bestPower > 0 ? p.score / bestPower : 0]));
    const powerIncidental = new Map(powers.map((p) => [p.name, p.incidental]));
    const byId = new Map(tools.map((t) => [t.name, t]));
    const subjects = new Set(weighted.filter(isSubject).map((t) => t.term));
    const mixed = [...this.powerOfTool].flatMap(([toolId, power]) => {
      const tool = byId.get(toolId);
      const share = powerShare.get(power) ?? 0;
      if (!tool && share === 0) return [];
      // A tool that matched nothing itself is there by its power's match, as much in passing as that.
      const base = tool ?? {
        name: toolId,
        score: 0,
        normalized: 0,
        coverage: 0,
        identity: 0,
        incidental: powerIncidental.get(power) ?? 0,
        matchType: 'description' as const,
        matchedTerms: [],
      };
      const paramHits = paramHitsOf(this.toolParameters.get(toolId), weighted, this.tools);
      const named = nameCoverage(this.ownNameTerms.get(toolId), subjects, this.tools);
      return [
        {
          ...base,
          paramHits,
          score: scale * ((1 - POWER_MIX) * (base.score / scale) + POWER_MIX * share + NAME_MIX * named),
        },
      ];
    });
    return rememberedFirst(this.safeForRequest(query, weighted, mixed.sort(byStrength)), remembered);
  }

  /**
   * A tool learned requests for the actions they asked: a request that asks for another kind of
   * action gets the tool's match without them ("close issue #12" does not follow "open an issue"
   * to the tool that creates issues).
   */
  private withoutOtherActions(query: string, ranked: LexicalCandidate[], weighted: WeightedTerm[]): LexicalCandidate[] {
    if (this.learnedVerbs.size === 0) return ranked;
    const verbs = requestVerbs(query);
    const other = new Set(
      [...this.learnedVerbs]
        .filter(([, asked]) => !asked.some((kind) => sameKindOfAction(verbs, kind)))
        .map(([id]) => id),
    );
    if (other.size === 0) return ranked;
    const plain = new Map(
      rankIndex(this.unlearnedTools, weighted, (id) => this.declaredTool.get(id) ?? NONE, this.tools).map((c) => [
        c.name,
        c,
      ]),
    );
    return ranked
      .flatMap((c) => (other.has(c.name) ? (plain.has(c.name) ? [plain.get(c.name)!] : []) : [c]))
      .sort(byStrength);
  }

  /**
   * A request that asks for no change never gets a destructive tool first unless it names it (a
   * word or action of the tool's name): such a tool matched only on its description or its
   * power's, so it follows every other tool, and goes when nothing else matched. "Reason about a
   * logic puzzle" is no reason to send input to a running process, whatever words the process
   * tool's description shares with it. A question asks to read, whatever its verbs ("what do you
   * remember about Alice?", "what files did the pull request change?"), and so does an imperative
   * that opens with a verb of reading and names no change ("show the commit history"): there,
   * every tool that writes and is not named follows the others.
   */
  private safeForRequest(query: string, weighted: WeightedTerm[], ranked: LexicalCandidate[]): LexicalCandidate[] {
    const reading = asksToRead(query);
    if (!reading && asksForChange(query)) return ranked;
    const asked = new Set(weighted.map((t) => t.term));
    const unasked = (c: LexicalCandidate) => {
      const tool = this.changingTools.get(c.name);
      return tool !== undefined && (reading || tool.destructive) && !tool.nameTerms.some((term) => asked.has(term));
    };
    const first = ranked.filter((c) => !unasked(c));
    if (first.length === ranked.length) return ranked;
    const matched = first.some((c) => c.score > 0);
    const bottom = first[first.length - 1]?.score ?? 0;
    // Below the last of the others, in their own order: their scores still say how well each matched.
    const after = ranked.filter((c) => unasked(c) && (matched || !this.changingTools.get(c.name)?.destructive));
    return [...first, ...after.map((c) => ({ ...c, score: Math.min(c.score, bottom * 0.999) }))];
  }
}

interface AnalysedPower {
  power: SearchDocument;
  tools: Array<
    SearchDocument & {
      parameters: Set<string>;
      destructive: boolean;
      writes: boolean;
      nameTerms: string[];
      ownName: string[];
      learnedVerbs: Array<Set<string>>;
    }
  >;
  /** Requests that worked before, by request key, with their weight: for the power, and for each tool id. */
  remembered: Array<{ key: string; id: string; weight: number; tool: boolean }>;
}

function analysePower(doc: PowerDocument): AnalysedPower {
  const fields = {
    name: terms(doc.name),
    keywords: doc.keywords.flatMap(terms),
    description: terms(doc.description),
    toolNames: doc.tools.flatMap((tool) => terms(tool.name)),
    toolDescriptions: doc.tools.flatMap((tool) => terms(leadAndRest(tool.description ?? '')[0])),
    toolProse: doc.tools.flatMap((tool) => terms(leadAndRest(tool.description ?? '')[1])),
    parameters: doc.tools.flatMap((tool) => (tool.parameters ?? []).flatMap(terms)),
  };
  const own = [
    ...fields.name,
    ...fields.keywords,
    ...fields.description,
    ...fields.toolNames,
    ...fields.toolDescriptions,
    ...fields.toolProse,
  ];
  const phrases = [fields.name, fields.keywords, fields.description, fields.toolNames, fields.toolDescriptions].flatMap(
    bigrams,
  );
  // What the power says it is (its name, keywords, description, tool names), apart from what its
  // tools' prose and parameters mention in passing.
  const declaredWords = [...fields.name, ...fields.keywords, ...fields.description, ...fields.toolNames];
  const declared = new Set([
    ...declaredWords,
    ...domainTagTerms(declaredWords),
    ...[fields.name, fields.keywords, fields.description, fields.toolNames].flatMap(bigrams),
  ]);
  const powerContext = [...fields.name, ...fields.keywords, ...fields.description];
  const learned = learnedField(doc.learned);
  const remembered: AnalysedPower['remembered'] = (doc.learned ?? []).map((l) => ({
    key: requestKeyOf(l.text),
    id: doc.name,
    weight: l.weight,
    tool: false,
  }));
  return {
    power: {
      id: doc.name,
      fields: { ...fields, domains: domainTagTerms(own), phrases, learned: learned.terms },
      weights: { learned: learned.weights },
      declared: new Set([...declared, ...learned.terms]),
    },
    tools: doc.tools.map((tool) => {
      const id = tool.id ?? `${doc.name}:${tool.name}`;
      const name = terms(tool.name);
      const [leadText, restText] = leadAndRest(tool.description ?? '');
      const lead = terms(leadText);
      const rest = terms(restText);
      const toolLearned = learnedField(tool.learned);
      const actions = toolActionTags(tool.name, leadText, doc.name);
      const verbs = nameVerbTerms(tool.name);
      for (const l of tool.learned ?? [])
        remembered.push({ key: requestKeyOf(l.text), id, weight: l.weight, tool: true });
      // A tool's domains are what its name and first sentence say it does: its power's words are
      // every sibling's (and weigh through the power's share), its further prose is in passing.
      const toolDomains = domainTagTerms([...name, ...lead]);
      return {
        id,
        fields: {
          name,
          lead,
          description: rest,
          power: powerContext,
          domains: toolDomains,
          actions,
          learned: toolLearned.terms,
        },
        parameters: new Set((tool.parameters ?? []).flatMap(terms)),
        destructive: tool.destructive === true,
        writes: tool.writes === true,
        nameTerms: [...name, ...toolActionTags(tool.name, '')],
        learnedVerbs: (tool.learned ?? []).map((l) => requestVerbs(l.text)),
        ownName: [...new Set(name.filter((t) => !fields.name.includes(t) && !verbs.has(t)))],
        weights: { learned: toolLearned.weights },
        declared: new Set([
          ...name,
          ...lead,
          ...powerContext,
          ...toolDomains,
          ...actions,
          ...toolLearned.terms,
          ...bigrams(name),
          ...bigrams(lead),
        ]),
      };
    }),
    remembered,
  };
}

/**
 * The learned requests' terms, each weighted as a query weighs it (request words and verbs less,
 * domain tags and phrases too) times its request's weight: a learned request is a request.
 */
function learnedField(learned: LearnedText[] | undefined): { terms: string[]; weights: number[] } {
  const out = { terms: [] as string[], weights: [] as number[] };
  for (const { text, weight } of learned ?? []) {
    for (const term of queryTerms(text)) {
      out.terms.push(term.term);
      out.weights.push(term.weight * weight);
    }
  }
  return out;
}

/**
 * The key under which a request counts as seen before: the set of its search terms, so "Read the
 * file." and "read a file", or "blocking the sprint demo" and "sprint demo blocked", are one request.
 */
export function requestKeyOf(query: string): string {
  return [...new Set(terms(query))].sort().join(' ');
}

/**
 * A request seen before goes first to what worked for it (the heaviest, that is the most recent,
 * when several did); the rest keep their order.
 */
function rememberedFirst(ranked: LexicalCandidate[], remembered: string | undefined): LexicalCandidate[] {
  if (!remembered) return ranked;
  const at = ranked.findIndex((c) => c.name === remembered);
  if (at <= 0) return ranked;
  // Level with the best, not above it: what worked before leads, and the lexical evidence still says how clearly.
  return [{ ...ranked[at], score: ranked[0].score }, ...ranked.slice(0, at), ...ranked.slice(at + 1)];
}

/** A request's subject word: one of full weight, or marked so by the query's analysis. */
function isSubject(term: WeightedTerm): boolean {
  return term.subject === true || term.weight >= 1;
}

/** `scale`: the index whose term statistics (IDF) the scores are on, when not `index` itself. */
function rankIndex(
  index: Bm25fIndex,
  query: WeightedTerm[],
  declared: (id: string) => ReadonlySet<string>,
  scale: Bm25fIndex = index,
): LexicalCandidate[] {
  // Words no document has cannot tell the powers apart ("remember that Ada Lovelace ..."): the
  // reachable score and the coverage count only the query's words the catalog knows.
  const known = query.filter((t) => scale.documentFrequency(t.term) > 0);
  const subject = known.filter(isSubject);
  const subjectIdf = subject.reduce((sum, t) => sum + scale.idf(t.term), 0);
  const reachable = known.reduce((sum, t) => sum + t.weight * scale.idf(t.term), 0);
  const signals = new Map(subject.map((t) => [t.term, [...domainTags([t.term]).keys()]]));
  const scored = index
    .score(query, (term) => scale.idf(term))
    .map(({ id, score, matches }) => {
      const hit = new Set(matches.map((m) => m.term));
      const covered = subject.reduce(
        (s, t) =>
          s +
          (hit.has(t.term) ? 1 : signals.get(t.term)!.some((d) => hit.has(d)) ? DOMAIN_COVER : 0) * scale.idf(t.term),
        0,
      );
      return {
        name: id,
        score,
        normalized: reachable > 0 ? Math.min(1, score / reachable) : 0,
        coverage: subjectIdf > 0 ? covered / subjectIdf : 0,
        identity:
          score > 0 ? matches.filter((m) => IDENTITY_FIELDS.has(m.field)).reduce((s, m) => s + m.score, 0) / score : 0,
        incidental:
          score > 0 ? matches.filter((m) => !declared(id).has(m.term)).reduce((s, m) => s + m.score, 0) / score : 0,
        matchType: dominantField(matches),
        matchedTerms: matches.map((m) => m.term),
      };
    });
  return scored.sort(byStrength);
}

/**
 * The IDF-weighted share of a tool's own name words that are the request's subject words: a
 * tool's name is the shortest summary of what it is about, and a request that says it ("tag this
 * commit" for `git_tag`) asks for that tool, whatever a sibling's longer description also
 * mentions. Its power's name is every sibling's, and its verbs are matched as actions.
 */
function nameCoverage(own: string[] | undefined, asked: ReadonlySet<string>, index: Bm25fIndex): number {
  if (!own || own.length === 0) return 0;
  const total = own.reduce((sum, term) => sum + index.idf(term), 0);
  return total > 0 ? own.reduce((sum, term) => sum + (asked.has(term) ? index.idf(term) : 0), 0) / total : 0;
}

/** The query's terms a tool's parameter names have, each by its weight and IDF in the tool index. */
function paramHitsOf(parameters: ReadonlySet<string> | undefined, query: WeightedTerm[], index: Bm25fIndex): number {
  if (!parameters || parameters.size === 0) return 0;
  return query.reduce((sum, t) => (parameters.has(t.term) ? sum + t.weight * index.idf(t.term) : sum), 0);
}

/**
 * Best score first; on a tie the match in the stronger fields (less of it in passing), then the
 * tool whose parameter names have more of the request, then by name so the order is stable.
 */
function byStrength(a: LexicalCandidate, b: LexicalCandidate): number {
  return (
    b.score - a.score ||
    a.incidental - b.incidental ||
    (b.paramHits ?? 0) - (a.paramHits ?? 0) ||
    a.name.localeCompare(b.name)
  );
}

function dominantField(matches: TermMatch[]): MatchType {
  const byField = new Map<string, number>();
  for (const match of matches) byField.set(match.field, (byField.get(match.field) ?? 0) + match.score);
  const best = [...byField.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  return best ? FIELD_MATCH_TYPE[best] : 'description';
}
