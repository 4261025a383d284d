/** The editor's approval of a power's launch over JSON-RPC (the user's choice in the modal, never an MCP session's). */
import type { LaunchApprovals } from '../trust/launch-approvals.js';
import type { PowerDefinition } from '../powers/types.js';
import type { LaunchApprovalParams } from '../../protocol/extension-methods.js';

export interface LaunchPorts {
  power(name: string): PowerDefinition | undefined;
  launches: Pick<LaunchApprovals, 'approve'>;
}

/** Approves the launch the user was shown (its hash); throws when the power is gone, waits for nothing, or changed since. */
export function approvePowerLaunch(ports: LaunchPorts, params: LaunchApprovalParams): void {
  if (typeof params?.name !== 'string' || typeof params.hash !== 'string')
    throw new Error('Name the power and the launch (hash) the user approved.');
  const power = ports.power(params.name);
  if (!power) throw new Error(`No power '${params.name}' is configured now: the powers were reloaded meanwhile.`);
  if (!ports.launches.approve(power, null, params.hash))
    throw new Error(`Power '${power.name}' waits for no approval to run.`);
}
