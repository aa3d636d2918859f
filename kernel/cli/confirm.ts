// Interactive confirmation for destructive operator commands. Without a terminal nobody can answer,
// so the command refuses unless the operator said yes up front with --yes: a script must never
// proceed on a guess.

import type { CliIo } from './command.ts';

/** True when the operator agreed (or passed --yes); false when declined or no terminal to ask on. */
export async function confirm(io: CliIo, question: string, opts: { yes: boolean }): Promise<boolean> {
  if (opts.yes) return true;
  if (!io.interactive) {
    io.err(`${question}\nNo terminal to confirm on: pass --yes to proceed without asking.\n`);
    return false;
  }
  const answer = (await io.ask(`${question} [y/N] `)).trim().toLowerCase();
  return answer === 'y' || answer === 'yes';
}
