#!/usr/bin/env node
import { errorMessage } from '../log.js';
import { VERSION } from '../version.js';
import { parseCliArgs, UsageError, USAGE, type CliArgs } from './args.js';
import type { RuntimeOptions } from '../runtime.js';

// Each command's module is loaded when it runs: a read-only command never loads the gateway, and
// `serve` answers its client before the gateway is loaded.

async function main(argv: string[]): Promise<number> {
  const args = parseCliArgs(argv);
  if (args.version) {
    process.stdout.write(`${VERSION}\n`);
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
      return (await import('./serve-command.js')).serve(args, runtime);
    case 'powers':
      if (sub === 'approve') return (await import('./launch-command.js')).approveLaunchCommand(rest[0], args, runtime);
      if (sub !== 'list')
        throw new UsageError(
          `unknown subcommand 'powers ${sub ?? ''}': use 'grimoire powers list' or 'grimoire powers approve <name>'.`,
        );
      return (await import('./powers-command.js')).listPowers(args, runtime);
    case 'resolve': {
      const query = [sub, ...rest].filter(Boolean).join(' ');
      if (!query) throw new UsageError('resolve needs a query: grimoire resolve "read a file from my project"');
      return (await import('./resolve-command.js')).resolveQuery(query, args, runtime);
    }
    case 'events':
      return (await import('./events-command.js')).listEvents(args, runtime);
    case 'bench':
      return (await import('./bench-command.js')).bench(args);
    case 'calibrate':
      return (await import('./calibrate-command.js')).calibrateCommand(args);
    case 'stats':
      return (await import('./stats-command.js')).stats(args, runtime);
    case 'activity':
      return (await import('./activity-command.js')).activity(sub, rest, args, runtime);
    case 'call':
      return (await import('./call-command.js')).callCommand(sub, rest[0], args, runtime);
    case 'users':
      return (await import('./users-command.js')).usersCommand(sub, rest, args, runtime);
    case 'hints':
      return (await import('./hints-command.js')).hintsCommand(args, runtime);
    case 'tools':
      if (sub === 'reads' || sub === 'confirm-read' || sub === 'unconfirm-read')
        return (await import('./reads-command.js')).readsCommand(sub, rest[0], args, runtime);
      return (await import('./tools-command.js')).toolsCommand(sub, rest[0], args, runtime);
    case 'spells':
      if (sub !== 'check')
        throw new UsageError(`unknown subcommand 'spells ${sub ?? ''}': use 'grimoire spells check [FILE|DIR]...'.`);
      return (await import('./spells-command.js')).spellsCommand(rest, args);
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
    databaseUrl: args.database,
    trustWorkspace: args.trustWorkspace,
    settingsOverrides: args.callTimeoutMs ? { upstream: { callTimeoutMs: args.callTimeoutMs } } : {},
  };
}

/**
 * A finished command exits once its output is flushed, without waiting for V8 to finish
 * optimizing sql.js's WebAssembly in the background (that wait took longer than the command).
 */
function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(exitWhenFlushed, (error) => {
  if (error instanceof UsageError) {
    process.stderr.write(`grimoire: ${error.message}\n\n${USAGE}\n`);
    exitWhenFlushed(2);
  } else {
    process.stderr.write(`grimoire: ${errorMessage(error)}\n`);
    exitWhenFlushed(1);
  }
});
