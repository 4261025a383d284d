import { Catalog } from '../catalog/catalog.js';
import {
  catalogListedTools,
  confirmReads,
  readCandidates,
  toolsViewOf,
  type ListedTools,
  type ReadCandidate,
  type ReadTarget,
} from '../catalog/read-candidates.js';
import { firstSentence } from '../gateway/tool-lines.js';
import type { RuntimeOptions } from '../runtime.js';
import { loadRegistry, runtimeConfig } from '../runtime-parts.js';
import { ReadConfirmations } from '../trust/read-confirmations.js';
import { UsageError, type CliArgs } from './args.js';
import { parseToolTarget } from './tool-target.js';
import { withStore } from './store-only.js';

const USAGE =
  'usage: grimoire tools reads [--power P] [--json] | grimoire tools confirm-read <power:tool> | ' +
  '--power P | --all | grimoire tools unconfirm-read <power:tool>';

/**
 * `grimoire tools reads|confirm-read|unconfirm-read`: the tools Grimoire believes only read that no
 * annotation declares, and the user's one-time confirmation of them (pinned to each tool's version).
 * Works on the store and the spells alone; a running gateway picks a decision up within a second.
 */
export function readsCommand(
  sub: string,
  target: string | undefined,
  args: CliArgs,
  options: RuntimeOptions,
): Promise<number> {
  return withStore(options, sub === 'reads' ? 'reads' : 'writes', (store) => {
    const reads = new ReadConfirmations(store);
    try {
      const listed = listedTools(new Catalog(store), options);
      switch (sub) {
        case 'reads': {
          const candidates = readCandidates(
            listed
              .powers()
              .filter((p) => !args.power || p.name === args.power)
              .map((p) => toolsViewOf(listed, p.name)),
            reads,
          );
          if (args.json) process.stdout.write(JSON.stringify({ reads: candidates }, null, 2) + '\n');
          else process.stdout.write(describeCandidates(candidates));
          return 0;
        }
        case 'confirm-read': {
          const targets: ReadTarget[] = args.all ? ['all'] : [parseToolTarget(target, args.power, USAGE)];
          const outcome = confirmReads(targets, listed, reads);
          for (const refusal of outcome.refused) process.stderr.write(`grimoire: ${refusal}\n`);
          for (const candidate of outcome.confirmed)
            process.stdout.write(`confirmed read-only ${candidate.power}:${candidate.tool}\n`);
          if (outcome.confirmed.length === 0 && outcome.refused.length === 0)
            process.stdout.write("Nothing awaits confirmation. See 'grimoire tools reads'.\n");
          return outcome.refused.length > 0 ? 1 : 0;
        }
        case 'unconfirm-read': {
          const { power, tool } = parseToolTarget(target, undefined, USAGE) as { power: string; tool: string };
          if (!reads.revoke(power, tool)) {
            process.stderr.write(`grimoire: '${power}:${tool}' was not confirmed read-only.\n`);
            return 1;
          }
          process.stdout.write(`'${power}:${tool}' goes through call_tool_write again\n`);
          return 0;
        }
        default:
          throw new UsageError(USAGE);
      }
    } finally {
      reads.close();
    }
  });
}

/** The configured powers' tools as the catalog last listed them, and the spells' overrides. */
function listedTools(catalog: Catalog, options: RuntimeOptions): ListedTools {
  return catalogListedTools(loadRegistry(options, runtimeConfig(options), 'debug'), catalog.all());
}

const STATUS = { new: 'not confirmed', changed: 'changed since confirmed', confirmed: 'confirmed read-only' } as const;

function describeCandidates(candidates: readonly ReadCandidate[]): string {
  if (candidates.length === 0) return 'No listed tool looks like a read without declaring it.\n';
  const width = Math.max(...candidates.map((c) => c.power.length + c.tool.length + 1));
  const lines = candidates.map(
    (c) =>
      `${`${c.power}:${c.tool}`.padEnd(width)}  ${STATUS[c.status].padEnd(23)}  ${firstSentence(c.description, 90)}`,
  );
  const waiting = candidates.filter((c) => c.status !== 'confirmed').length;
  if (waiting > 0) {
    lines.push(
      '',
      `${waiting} tool${waiting === 1 ? '' : 's'} look${waiting === 1 ? 's' : ''} like ` +
        `${waiting === 1 ? 'a read' : 'reads'} by name; until you confirm ${waiting === 1 ? 'it' : 'them'}, ` +
        `${waiting === 1 ? 'it goes' : 'they go'} through call_tool_write (your editor asks ` +
        `before each call).`,
      "Confirm all of them with 'grimoire tools confirm-read --all', one with 'grimoire tools confirm-read <power:tool>'.",
    );
  }
  return lines.join('\n') + '\n';
}
