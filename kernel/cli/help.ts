// Help texts of the kernel CLI: the top-level list of commands and each command's --help. Both are
// generated from the commands' own declarations, so the help can never list an option that parsing
// would refuse, or miss one it accepts.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../paths.ts';
import type { CliCommand, CliOption } from './command.ts';
import { canonicalName, type CommandEntry } from './registry.ts';

export const MAIN = 'node --import tsx kernel/cli/main.ts';

/** The exit codes every command shares (the `EXIT` constants), as printed in help and the docs. */
export const EXIT_CODES_TEXT = `Exit codes:
  0  success
  1  the operation failed (the message says why)
  2  usage error: unknown command or option, missing or invalid argument
  3  declined: the operator answered no, or a confirmation was needed without a terminal and no --yes
`;

export function mainHelp(entries: CommandEntry[]): string {
  const usable = entries.filter((e) => e.command);
  const width = Math.max(12, ...usable.map((e) => e.command?.name.length ?? 0));
  const lines = usable.map((e) => `  ${(e.command as CliCommand).name.padEnd(width)}  ${e.command?.summary}`);
  const broken = entries
    .filter((e) => !e.command)
    .map((e) => `  ${e.file.padEnd(width)}  (not usable: ${e.error ?? 'unknown error'})`);
  return `Usage: ${MAIN} <command> [options]
       ucmcp <command> [options]   (the package's bin; npx ucmcp in the checkout)
       node --import tsx scripts/<command>.ts [options]
       ${MAIN} --version

The operator commands of the server, run on the host (not through MCP).

Commands:
${[...lines, ...broken].join('\n')}

Run '${MAIN} <command> --help' for a command's options and exit codes.

${EXIT_CODES_TEXT}`;
}

function flag(o: CliOption): string {
  return `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.type === 'string' ? ' <value>' : ''}`;
}

export function commandHelp(cmd: CliCommand): string {
  const name = canonicalName(cmd.name);
  const script = existsSync(join(PROJECT_ROOT, 'scripts', `${name}.ts`))
    ? `\n       node --import tsx scripts/${name}.ts [options]`
    : '';
  const options: CliOption[] = [
    ...cmd.options,
    ...(cmd.options.some((o) => o.name === 'help')
      ? []
      : [{ name: 'help', short: 'h', type: 'boolean' as const, description: 'this text' }]),
  ];
  const width = Math.max(...options.map((o) => flag(o).length));
  const body = cmd.help.trim();
  // A command whose exit codes mean something more specific documents them itself.
  const exits = /exit codes/i.test(body) ? '' : `\n${EXIT_CODES_TEXT}`;
  return `Usage: ${MAIN} ${name} [options]${script}

${cmd.summary}

Options:
${options.map((o) => `  ${flag(o).padEnd(width)}  ${o.description}`).join('\n')}
${body ? `\n${body}\n` : ''}${exits}`;
}
