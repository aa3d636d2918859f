import { CUC_COMMANDS } from '../../cuc/cli.ts';
import type { VosProduct } from '../state.ts';
import { DRS_COMMANDS } from './drs.ts';
import { FILE_COMMANDS } from './file.ts';
import { HARDENING_COMMANDS } from './hardening.ts';
import { PERF_COMMANDS } from './perf.ts';
import { PLATFORM_COMMANDS } from './platform.ts';
import { RISDB_COMMANDS } from './risdb.ts';
import { SETTING_COMMANDS } from './settings.ts';
import { SHOW_COMMANDS } from './show.ts';
import { TRACE_COMMANDS } from './trace.ts';
import type { CliCommand } from './types.ts';
import { UTILS_COMMANDS } from './utils.ts';

/** Every command the lab's VOS CLI knows; products share it, outputs vary by product and profile. */
export const COMMANDS: readonly CliCommand[] = [
  ...SHOW_COMMANDS,
  ...UTILS_COMMANDS,
  ...SETTING_COMMANDS,
  ...FILE_COMMANDS,
  ...PLATFORM_COMMANDS,
  ...PERF_COMMANDS,
  ...DRS_COMMANDS,
  ...RISDB_COMMANDS,
  ...CUC_COMMANDS,
  ...HARDENING_COMMANDS,
  ...TRACE_COMMANDS,
];

export interface Match {
  command: CliCommand;
  args: string[];
}

/** The command a line names (keywords case-insensitive, longest match), or undefined: an invalid command. */
export function matchCommand(line: string, product: VosProduct): Match | undefined {
  const words = line
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  let best: Match | undefined;
  for (const command of COMMANDS) {
    if (command.products && !command.products.includes(product)) continue;
    if (words.length < command.words.length) continue;
    if (!command.words.every((w, i) => words[i]?.toLowerCase() === w)) continue;
    const args = words.slice(command.words.length);
    if (args.length > 0 && !command.takesArgs) continue;
    if (!best || command.words.length > best.command.words.length) best = { command, args };
  }
  return best;
}
