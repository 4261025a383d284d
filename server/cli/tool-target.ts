import { UsageError } from './args.js';

/**
 * The tool a `grimoire tools` command names, `<power>:<tool>`; without one, the power of `--power`
 * where the command takes a whole power (pass `powerFlag` only there). `usage` is the command's own.
 */
export function parseToolTarget(
  target: string | undefined,
  powerFlag: string | undefined,
  usage: string,
): { power: string; tool?: string } {
  if (target) {
    const at = target.indexOf(':');
    if (at <= 0 || at === target.length - 1)
      throw new UsageError(`'${target}' does not name a tool: write <power>:<tool>.\n${usage}`);
    return { power: target.slice(0, at), tool: target.slice(at + 1) };
  }
  if (powerFlag) return { power: powerFlag };
  throw new UsageError(usage);
}
