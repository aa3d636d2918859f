// Runs one operator command: finds it, parses its options strictly from its own declaration, answers
// --help, and turns every failure into one of the documented exit codes with a message (never a stack
// trace, which could carry a secret from an argument or a file).

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PACKAGE_VERSION } from '../paths.ts';
import { EXIT, type CliCommand, type CliIo } from './command.ts';
import { commandHelp, MAIN, mainHelp } from './help.ts';
import { COMMANDS_DIR, listCommands, loadCommand } from './registry.ts';

/** `main.ts <command> [options]`: the top-level entry. */
export async function dispatch(argv: string[], io: CliIo, dir = COMMANDS_DIR): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const helpFor = first === 'help' ? rest[0] : undefined;
    if (helpFor !== undefined) return runNamed(helpFor, ['--help'], io, dir);
    io[first === undefined ? 'err' : 'out'](mainHelp(await listCommands(dir)));
    return first === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (first === '--version' || first === '-V') {
    io.out(`${PACKAGE_VERSION}\n`);
    return EXIT.OK;
  }
  if (first.startsWith('-')) {
    io.err(`unknown option ${first} before the command\nRun '${MAIN} --help' for the commands.\n`);
    return EXIT.USAGE;
  }
  return runNamed(first, rest, io, dir);
}

/** Runs the command called `name` with its arguments (what scripts/<name>.ts does). */
export async function runNamed(name: string, argv: string[], io: CliIo, dir = COMMANDS_DIR): Promise<number> {
  let command: CliCommand | undefined;
  try {
    command = await loadCommand(name, dir);
  } catch (err) {
    io.err(`${name}: the command could not be loaded: ${(err as Error).message}\n`);
    return EXIT.FAILED;
  }
  if (!command) {
    io.err(`unknown command '${name}'\nRun '${MAIN} --help' for the commands.\n`);
    return EXIT.USAGE;
  }
  return runCommandWith(command, argv, io);
}

/** Parses `argv` against the command's options and runs it. */
export async function runCommandWith(command: CliCommand, argv: string[], io: CliIo): Promise<number> {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const o of command.options) options[o.name] = { type: o.type, ...(o.short ? { short: o.short } : {}) };
  options.help ??= { type: 'boolean', short: 'h' };
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    const r = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
    parsed = { values: r.values as Record<string, string | boolean | undefined>, positionals: r.positionals };
  } catch (err) {
    io.err(`${command.name}: ${(err as Error).message}\nRun '${MAIN} ${command.name} --help' for usage.\n`);
    return EXIT.USAGE;
  }
  if (parsed.values.help === true && !command.options.some((o) => o.name === 'help')) {
    io.out(commandHelp(command));
    return EXIT.OK;
  }
  try {
    return await command.run(parsed, io);
  } catch (err) {
    io.err(`${command.name}: ${(err as Error).message}\n`);
    return EXIT.FAILED;
  }
}

/** For commands that take no positional arguments: a usage error naming the first stray one. */
export function rejectPositionals(
  command: string,
  positionals: string[],
  io: CliIo,
): typeof EXIT.USAGE | undefined {
  if (positionals.length === 0) return undefined;
  io.err(`${command}: unexpected argument '${positionals[0]}'\nRun '${MAIN} ${command} --help' for usage.\n`);
  return EXIT.USAGE;
}
