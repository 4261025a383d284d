/** Per MCP session: which tools completed successfully, in order, and what was last suggested. */
export class SessionContext {
  private readonly completed: string[] = [];
  private readonly suggestedBefore = new Set<string>();

  constructor(readonly sessionId: string) {}

  complete(tool: string): void {
    this.completed.push(tool);
  }

  hasCompleted(tool: string): boolean {
    return this.completed.includes(tool);
  }

  history(): readonly string[] {
    return this.completed;
  }

  /** True the first time a prerequisite is suggested for `tool`; calling again runs it. */
  firstSuggestion(tool: string): boolean {
    if (this.suggestedBefore.has(tool)) return false;
    this.suggestedBefore.add(tool);
    return true;
  }
}

export class SessionContexts {
  private readonly sessions = new Map<string, SessionContext>();

  get(sessionId: string): SessionContext {
    let context = this.sessions.get(sessionId);
    if (!context) {
      context = new SessionContext(sessionId);
      this.sessions.set(sessionId, context);
    }
    return context;
  }
}
