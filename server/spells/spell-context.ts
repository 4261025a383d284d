/** The checker's view of a running gateway: the other powers, their known tools, the demo spells' variables. */
import * as path from 'node:path';
import type { Runtime } from '../runtime.js';
import type { SpellCheckContext } from './check-spell.js';

export interface SpellContextSource {
  runtime?: Runtime;
  env: NodeJS.ProcessEnv;
  /** Spell folders with their own variables (the bundled demo spells). */
  extraDirs?: ReadonlyArray<{ dir: string; vars: Record<string, string>; kind: 'spell' | 'demo' }>;
}

export function spellContext(source: SpellContextSource, file: string): SpellCheckContext {
  const resolved = path.resolve(file);
  const extra = source.extraDirs?.find((dir) => resolved.startsWith(path.resolve(dir.dir) + path.sep));
  const runtime = source.runtime;
  return {
    env: source.env,
    ...(extra ? { vars: extra.vars, kind: extra.kind } : {}),
    pathEnv: source.env.PATH,
    otherPowers:
      runtime?.registry.snapshot().powers.map((power) => ({ name: power.name, file: power.source.file })) ?? [],
    toolsOf: (name) => runtime?.gateway.ports.toolsOf(name).map((tool) => tool.name),
  };
}
