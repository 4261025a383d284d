/** Which endpoint VS Code was last given, and whether a new one needs telling it. No `vscode` import. */
import type { Endpoint, GatewayStatus } from '../server/rpc/protocol.js';

export class EndpointTracker {
  private current?: Endpoint;

  get endpoint(): Endpoint | undefined {
    return this.current;
  }

  /**
   * True when the status announces an endpoint other than the one held: served anew by the same
   * process (a new version) or by a restarted process (whose versions start over, on a new port).
   */
  isStale(status: GatewayStatus): boolean {
    return status.health === 'ready' && (status.endpointVersion !== this.current?.version || status.url !== this.current?.url);
  }

  /** Holds the endpoint; true when its address or token changed, so the definitions must be re-provided. */
  update(next: Endpoint): boolean {
    const changed = !this.current || this.current.url !== next.url || this.current.token !== next.token;
    this.current = next;
    return changed;
  }
}

export function authorizationHeaders(endpoint: Endpoint): Record<string, string> {
  return { Authorization: `Bearer ${endpoint.token}` };
}
