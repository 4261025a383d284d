/**
 * Whether a client's model may be asked through MCP sampling. Under VS Code every sampling request
 * shows a model picker and a consent dialog, so there the extension's language model (vscodeLm)
 * summarizes and sampling is used only when the user turns `intel.summarizers.samplingInVsCode` on.
 */
import type { IntelSettings } from '../../config/intel-settings.js';

/** VS Code and its builds name themselves so in MCP's clientInfo (product nameLong). */
const VS_CODE_CLIENT = /visual studio code|vscodium|code - oss|code-server|\bvs ?code\b/i;

export function isVsCodeClient(clientName: string | undefined): boolean {
  return clientName !== undefined && VS_CODE_CLIENT.test(clientName);
}

export function samplingAllowed(clientName: string | undefined, settings: IntelSettings['summarizers']): boolean {
  return !isVsCodeClient(clientName) || settings.samplingInVsCode;
}
