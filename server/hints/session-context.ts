import { Lru } from '../util/lru.js';

/**
 * Sessions whose hint context is kept: past this many, the one used least recently is forgotten
 * (its prerequisites may be suggested again, which a hint allows).
 */
export const MAX_SESSION_CONTEXTS = 1_000;

/** Per MCP session: which tools completed successfully, and what was last suggested. */
export class SessionContext {
  /** Each tool once, however often it completed: a long session's context stays the size of its tools. */
  private readonly completed = new Set<string>();
  private readonly suggestedBefore = new Set<string>();

  constructor(readonly sessionId: string) {}

  complete(tool: string): void {
    this.completed.add(tool);
  }

  hasCompleted(tool: string): boolean {
    return this.completed.has(tool);
  }

  /** The tools completed so far (a replica of a team gateway stores them for the others). */
  completedTools(): string[] {
    return [...this.completed];
  }

  /** The tools a prerequisite was suggested for so far. */
  suggestedTools(): string[] {
    return [...this.suggestedBefore];
  }

  /** Takes what another replica recorded of this session. */
  adopt(completed: Iterable<string>, suggested: Iterable<string>): void {
    for (const tool of completed) this.completed.add(tool);
    for (const tool of suggested) this.suggestedBefore.add(tool);
  }

  /** True the first time a prerequisite is suggested for `tool`; calling again runs it. */
  firstSuggestion(tool: string): boolean {
    if (this.suggestedBefore.has(tool)) return false;
    this.suggestedBefore.add(tool);
    return true;
  }
}

export class SessionContexts {
  private readonly sessions: Lru<string, SessionContext>;

  constructor(max = MAX_SESSION_CONTEXTS) {
    this.sessions = new Lru(max);
  }

  get(sessionId: string): SessionContext {
    let context = this.sessions.get(sessionId);
    if (!context) this.sessions.set(sessionId, (context = new SessionContext(sessionId)));
    return context;
  }
}
