import type { PolicyPort, PowerLookup, ToolLookup } from './ports.js';
import { describePower } from './power-documents.js';
import type { ResolveAnswerView } from './resolve-answer.js';

/** The gateway's catalog as resolve-answer.ts reads it: tool rankings name tools `<power>:<tool>`. */
export function gatewayAnswerView(ports: PowerLookup & ToolLookup & PolicyPort): ResolveAnswerView {
  return {
    describe: (name) => {
      const power = ports.power(name);
      return power ? describePower(power, ports.toolsOf(name)).description : '';
    },
    powerNames: () => ports.powers().map((power) => power.name),
    toolsOf: (power) => ports.toolsOf(power),
    annotationsOf: (power, tool) => ports.annotationsOf(power, tool),
    callable: (power, tool) => ports.policy.exposable(power, tool),
    toolOf: (ranked) => {
      const colon = ranked.indexOf(':');
      return colon > 0 ? { power: ranked.slice(0, colon), tool: ranked.slice(colon + 1) } : undefined;
    },
  };
}
