/** Which endpoint VS Code was last given, and whether a new one needs telling it. No `vscode` import. */
import type { Endpoint } from '../protocol/records.js';

export class EndpointTracker {
  private current?: Endpoint;

  get endpoint(): Endpoint | undefined {
    return this.current;
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
