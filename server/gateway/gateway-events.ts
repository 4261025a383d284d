import type { Review } from '../trust/pins.js';
import type { StateChange } from '../upstream/connection.js';

/** What the gateway tells its listeners (the JSON-RPC server, live views, list_changed notifications). */
export type GatewayEvents = {
  /** Some session's tool list changed. */
  toolsChanged: [];
  /** A power's server started, stopped or crashed (never 'stopping'). */
  powerState: [StateChange];
  /** Tools were held for the user's review. */
  toolsQuarantined: [Review[]];
};
