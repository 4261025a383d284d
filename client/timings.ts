/** Milestones after `activate()` was entered, in ms. No `vscode` import. */
export type Milestone = 'activated' | 'serverInitialized' | 'gatewayReady';

export interface TimingsSnapshot {
  /** Loading and evaluating the extension's bundle, until activate() was entered. */
  loadMs?: number;
  /** activate() itself: registrations, the process is started but not awaited. */
  activatedMs?: number;
  /** The gateway process answered `initialize`. */
  serverInitializedMs?: number;
  /** The gateway serves MCP (runtime up, HTTP endpoint listening) and said so. */
  gatewayReadyMs?: number;
}

const FIELD: Record<Milestone, keyof TimingsSnapshot> = {
  activated: 'activatedMs',
  serverInitialized: 'serverInitializedMs',
  gatewayReady: 'gatewayReadyMs',
};

export class Timings {
  private readonly values: TimingsSnapshot = {};

  constructor(private readonly start: number) {}

  /** Records the first time a milestone is reached; false when it was already recorded. */
  mark(milestone: Milestone, now: number): boolean {
    const field = FIELD[milestone];
    if (this.values[field] !== undefined) return false;
    this.values[field] = Math.round((now - this.start) * 10) / 10;
    return true;
  }

  /** The bundle began evaluating at `loadStart` (same clock as `start`). */
  setLoadStart(loadStart: number): void {
    this.values.loadMs = Math.round((this.start - loadStart) * 10) / 10;
  }

  snapshot(): TimingsSnapshot {
    return { ...this.values };
  }

  describe(): string {
    const v = this.values;
    const load = v.loadMs !== undefined ? `code loaded in ${v.loadMs} ms; ` : '';
    return (
      `${load}after activation: activate() ${v.activatedMs ?? '?'} ms, ` +
      `gateway process initialized ${v.serverInitializedMs ?? '?'} ms, ` +
      `gateway ready (MCP endpoint serving) ${v.gatewayReadyMs ?? '?'} ms`
    );
  }
}
