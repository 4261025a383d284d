import type { RuntimeOptions } from '../runtime.js';
import { describeDiff } from '../trust/diff.js';
import type { Review } from '../trust/pins.js';
import { ToolTrust } from '../trust/tool-trust.js';
import { maskDeep } from '../util/secrets.js';
import { UsageError, type CliArgs } from './args.js';
import { withStore } from './store-only.js';
import { parseToolTarget } from './tool-target.js';

const USAGE =
  'usage: grimoire tools changes [--power P] [--json] | grimoire tools approve <power:tool> | --power ' +
  'P | grimoire tools reject <power:tool> | grimoire tools reads [--power P] [--json] | grimoire tools ' +
  'confirm-read <power:tool> | --power P | --all';

/**
 * `grimoire tools changes|approve|reject`: the tools held for review (changed since approved, or new),
 * and the user's decision. Works on the store the gateway uses (the data folder's, or the team's
 * PostgreSQL with `--database`), so a running gateway picks it up within seconds.
 */
export function toolsCommand(
  sub: string | undefined,
  target: string | undefined,
  args: CliArgs,
  options: RuntimeOptions,
): Promise<number> {
  return withStore(options, sub === 'changes' ? 'reads' : 'writes', (store) => {
    const trust = new ToolTrust(store);
    try {
      switch (sub) {
        case 'changes': {
          const reviews = maskDeep(trust.changes(args.power));
          if (args.json) process.stdout.write(JSON.stringify({ changes: reviews }, null, 2) + '\n');
          else if (reviews.length === 0)
            process.stdout.write(`No tool awaits review${args.power ? ` in '${args.power}'` : ''}.\n`);
          else for (const review of reviews) process.stdout.write(describeReview(review));
          return 0;
        }
        case 'approve': {
          const { power, tool } = parseToolTarget(target, args.power, USAGE);
          const approved = trust.approve(power, tool);
          if (approved.length === 0) {
            process.stderr.write(
              `grimoire: nothing awaits review for '${tool ? `${power}:${tool}` : power}'. See 'grimoire tools changes'.\n`,
            );
            return 1;
          }
          for (const review of approved) process.stdout.write(`approved ${review.power}:${review.tool}\n`);
          return 0;
        }
        case 'reject': {
          const { power, tool } = parseToolTarget(target, undefined, USAGE);
          const rejected = trust.reject(power, tool!);
          if (!rejected) {
            process.stderr.write(`grimoire: '${power}:${tool}' does not await review. See 'grimoire tools changes'.\n`);
            return 1;
          }
          process.stdout.write(
            `kept blocked ${power}:${tool} (approve it later with 'grimoire tools approve ${power}:${tool}')\n`,
          );
          return 0;
        }
        default:
          throw new UsageError(USAGE);
      }
    } finally {
      trust.close();
    }
  });
}

function describeReview(review: Review): string {
  const lines = [
    `${review.power}:${review.tool}  ${review.kind === 'added' ? 'new tool' : 'changed'}  ` +
      `${review.status === 'rejected' ? 'kept blocked' : 'awaiting review'}  (seen ` +
      `${new Date(review.seenAt).toISOString()})`,
    ...describeDiff(review.diff).map((line) => `  ${line}`),
  ];
  if (review.diff.description) {
    if (review.kind === 'changed') lines.push(`  old description: ${oneLine(review.diff.description.old)}`);
    lines.push(`  new description: ${oneLine(review.diff.description.new)}`);
  }
  for (const flag of review.suspicious) lines.push(`  SUSPICIOUS (${flag.kind}): "${flag.excerpt}"`);
  return lines.join('\n') + '\n\n';
}

const oneLine = (text: string) => JSON.stringify(text.length > 400 ? `${text.slice(0, 399)}…` : text);
