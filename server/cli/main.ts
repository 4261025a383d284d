#!/usr/bin/env node
import { errorMessage } from '../log.js';
import { parseCliArgs, UsageError, USAGE, type CliArgs } from './args.js';
import { activity } from './activity-command.js';
import { bench } from './bench-command.js';
import { callCommand } from './call-command.js';
import { hintsCommand } from './hints-command.js';
import { calibrateCommand } from './calibrate-command.js';
import { listEvents } from './events-command.js';
import { listPowers } from './powers-command.js';
import { resolveQuery } from './resolve-command.js';
import { serve } from './serve-command.js';
import { spellsCommand } from './spells-command.js';
import { stats } from './stats-command.js';
import { toolsCommand } from './tools-command.js';
import type { RuntimeOptions } from '../runtime.js';

async function main(argv: string[]): Promise<number> {
  const args = parseCliArgs(argv);
  if (args.version) {
    process.stdout.write('0.1.0\n');
    return 0;
  }
  const [command, sub, ...rest] = args.command;
  if (args.help || !command) {
    process.stdout.write(USAGE + '\n');
    return args.help ? 0 : 1;
  }
  const runtime = runtimeOptions(args);
  switch (command) {
    case 'serve':
      return serve(args, runtime);
    case 'powers':
      if (sub !== 'list') throw new UsageError(`unknown subcommand 'powers ${sub ?? ''}': use 'grimoire powers list'.`);
      return listPowers(args, runtime);
    case 'resolve': {
      const query = [sub, ...rest].filter(Boolean).join(' ');
      if (!query) throw new UsageError('resolve needs a query: grimoire resolve "read a file from my project"');
      return resolveQuery(query, args, runtime);
    }
    case 'events':
      return listEvents(args, runtime);
    case 'bench':
      return bench(args);
    case 'calibrate':
      return calibrateCommand(args);
    case 'stats':
      return stats(args, runtime);
    case 'activity':
      return activity(sub, rest, args, runtime);
    case 'call':
      return callCommand(sub, rest[0], args, runtime);
    case 'hints':
      return hintsCommand(args, runtime);
    case 'tools':
      return toolsCommand(sub, rest[0], args);
    case 'spells':
      if (sub !== 'check') throw new UsageError(`unknown subcommand 'spells ${sub ?? ''}': use 'grimoire spells check [FILE|DIR]...'.`);
      return spellsCommand(rest, args);
    default:
      throw new UsageError(`unknown command '${command}'.`);
  }
}

function runtimeOptions(args: CliArgs): RuntimeOptions {
  return {
    demo: args.demo,
    spellDirs: args.spells,
    workspaceFolder: args.workspace,
    imports: args.imports,
    settingsOverrides: args.callTimeoutMs ? { upstream: { callTimeoutMs: args.callTimeoutMs } } : {},
  };
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    if (error instanceof UsageError) {
      process.stderr.write(`grimoire: ${error.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`grimoire: ${errorMessage(error)}\n`);
      process.exitCode = 1;
    }
  },
);
