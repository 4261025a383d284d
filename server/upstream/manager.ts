import { EventEmitter } from 'node:events';
import type { PowerDefinition } from '../powers/types.js';
import { errorMessage, logger } from '../log.js';
import { ClientFeatureHub } from './client-features.js';
import type { PowerState, PowerStateChange } from '../../protocol/records.js';
import { PowerConnection, type ConnectionOptions } from './connection.js';
import type { ToolCheck } from './tool-check-gate.js';

export interface IdlePolicy {
  mode: 'minutes' | 'turns' | 'never';
  minutes: number;
  turns: number;
}

export interface ManagerOptions extends ConnectionOptions {
  idle: IdlePolicy;
}

export interface PowerStatus {
  name: string;
  state: PowerState;
  inFlight: number;
  lastError?: string;
  protocolVersion?: string;
}

const log = logger('upstream');

export type UpstreamEvents = {
  /** A power's server started, stopped, crashed or is stopping. */
  state: [PowerStateChange];
  /** This power's server said its tool list changed. */
  toolsChanged: [power: string];
};

/**
 * Every power's connection. Stops idle servers (their tools stay exposed: the next call starts the
 * server again), and stops every server when the gateway shuts down.
 * Re-emits its connections' events (UpstreamEvents).
 */
export class UpstreamManager extends EventEmitter<UpstreamEvents> {
  private readonly connections = new Map<string, PowerConnection>();
  /** Sampling, elicitation, roots, progress and notifications between the servers and the sessions. */
  readonly features = new ClientFeatureHub();
  private readonly turnsIdle = new Map<string, number>();
  private readonly idleTimer: NodeJS.Timeout;
  private toolCheck?: ToolCheck;
  private launchRefusal?: (power: PowerDefinition) => string | undefined;

  constructor(private readonly options: ManagerOptions) {
    super();
    this.idleTimer = setInterval(() => this.stopIdleByTime(), 15_000);
    this.idleTimer.unref();
    this.features.on('sessionAdded', () => this.restartOutdated());
  }

  /** Idle servers restart now for a session that can do more; busy ones at their next request. */
  private restartOutdated(): void {
    for (const connection of this.connections.values()) {
      connection
        .restartIfOutdated()
        .catch((error) => log.warn(`restarting '${connection.name}': ${errorMessage(error)}`));
    }
  }

  /** From now on, no call reaches a power's tool before its current definitions were checked by `check`. */
  checkToolsWith(check: ToolCheck): void {
    this.toolCheck = check;
  }

  /** From now on, no server starts while `refusal` gives a reason (its launch awaits the user's approval). */
  gateLaunchWith(refusal: (power: PowerDefinition) => string | undefined): void {
    this.launchRefusal = refusal;
  }

  /** The connection for a power, created on first use. */
  connection(power: PowerDefinition): PowerConnection {
    let connection = this.connections.get(power.name);
    if (!connection) {
      connection = new PowerConnection(
        power,
        this.options,
        this.features,
        () => this.toolCheck,
        (definition) => this.launchRefusal?.(definition),
      );
      connection.on('state', (change) => this.emit('state', change));
      connection.on('toolsChanged', () => this.emit('toolsChanged', power.name));
      this.connections.set(power.name, connection);
    }
    return connection;
  }

  get(name: string): PowerConnection | undefined {
    return this.connections.get(name);
  }

  /** Applies a reload: changed powers restart after their calls finish, removed ones stop. */
  async sync(powers: PowerDefinition[]): Promise<void> {
    const byName = new Map(powers.map((power) => [power.name, power]));
    const work: Promise<void>[] = [];
    for (const [name, connection] of this.connections) {
      const next = byName.get(name);
      if (!next) {
        this.connections.delete(name);
        work.push(connection.stop('power removed'));
      } else if (next.definitionHash !== connection.power.definitionHash) {
        work.push(connection.updateDefinition(next));
      }
    }
    const results = await Promise.allSettled(work);
    for (const result of results) if (result.status === 'rejected') log.warn(`reload: ${errorMessage(result.reason)}`);
  }

  /** One agent turn passed; `used` names the power it used, if any. */
  noteTurn(used?: string): void {
    if (used) this.turnsIdle.set(used, 0);
    if (this.options.idle.mode !== 'turns') return;
    for (const connection of this.connections.values()) {
      if (connection.name === used || connection.state !== 'active') continue;
      const turns = (this.turnsIdle.get(connection.name) ?? 0) + 1;
      this.turnsIdle.set(connection.name, turns);
      if (turns >= this.options.idle.turns && connection.inFlight === 0) {
        this.turnsIdle.set(connection.name, 0);
        void connection.stop(`idle for ${turns} turns`);
      }
    }
  }

  private stopIdleByTime(): void {
    if (this.options.idle.mode !== 'minutes') return;
    const limit = this.options.idle.minutes * 60_000;
    for (const connection of this.connections.values()) {
      const idleFor = Date.now() - connection.lastUsedAt;
      if (connection.state === 'active' && connection.inFlight === 0 && idleFor >= limit) {
        void connection.stop(`idle for ${Math.round(idleFor / 60_000)} minutes`);
      }
    }
  }

  statuses(): PowerStatus[] {
    return [...this.connections.values()].map((c) => ({
      name: c.name,
      state: c.state,
      inFlight: c.inFlight,
      lastError: c.lastError,
      protocolVersion: c.protocolVersion,
    }));
  }

  async shutdown(): Promise<void> {
    clearInterval(this.idleTimer);
    await Promise.allSettled(
      [...this.connections.values()].map((connection) => connection.stop('gateway shutting down', false)),
    );
  }
}
