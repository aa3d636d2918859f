// What may be typed into a VOS CLI shell, and how long each command may take.
import { BadRequestError } from '../../../kernel/sdk/index.ts';

/** Longest command line accepted, after normalising spaces. VOS commands are far shorter. */
export const MAX_COMMAND_LENGTH = 512;

/** Budget for a command no prefix below names; `show` commands answer within this on a busy node. */
export const DEFAULT_TIME_BUDGET_MS = 30_000;

/**
 * Per-prefix budgets from what real nodes take (PLATFORM-NOTES.md, "VOS CLI over SSH"). The longest
 * matching prefix wins; a prefix matches whole words only (`show` does not match `showx`).
 */
export const TIME_BUDGETS_MS: Readonly<Record<string, number>> = {
  show: 30_000,
  'utils service list': 120_000,
  'utils dbreplication runtimestate': 180_000,
  'utils diagnose test': 300_000,
};

/**
 * Checks and normalises one CLI command line. The shell is interactive: a newline would run a second
 * command, a control character or an escape sequence would edit the line or drive the terminal, so
 * anything but one line of printable ASCII is refused before a byte is sent. Runs of spaces become
 * one and the ends are trimmed, so the result is what an allowlist must match as a whole.
 */
export function validateCommand(command: unknown): string {
  if (typeof command !== 'string') throw new BadRequestError('the command must be a string');
  // Checked on the raw text too, so a huge input is not scanned and copied before it is refused.
  if (command.length > MAX_COMMAND_LENGTH * 4)
    throw new BadRequestError(`the command is too long (at most ${MAX_COMMAND_LENGTH} characters)`);
  if (command.includes('\x1b'))
    throw new BadRequestError(
      'the command contains an ANSI escape sequence (ESC); only printable text is allowed',
    );
  if (/[\r\n]/.test(command))
    throw new BadRequestError('the command contains a newline; send exactly one command line');
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const control = /[\x00-\x1f\x7f]/.exec(command);
  if (control)
    throw new BadRequestError(
      `the command contains a control character (0x${control[0].charCodeAt(0).toString(16).padStart(2, '0')}); ` +
        'only printable ASCII is allowed',
    );
  if (/[^\x20-\x7e]/.test(command))
    throw new BadRequestError('the command contains a non-ASCII character; only printable ASCII is allowed');
  const normalised = command.trim().replace(/ {2,}/g, ' ');
  if (normalised === '') throw new BadRequestError('the command is empty');
  if (normalised.length > MAX_COMMAND_LENGTH)
    throw new BadRequestError(`the command is too long (at most ${MAX_COMMAND_LENGTH} characters)`);
  return normalised;
}

/** The time a (normalised) command may take before the shell is given up, in milliseconds. */
export function timeBudget(command: string): number {
  const lower = command.toLowerCase().trim().replace(/ {2,}/g, ' ');
  let best = DEFAULT_TIME_BUDGET_MS;
  let bestLength = -1;
  for (const [prefix, ms] of Object.entries(TIME_BUDGETS_MS)) {
    const matches = lower === prefix || lower.startsWith(`${prefix} `);
    if (matches && prefix.length > bestLength) {
      best = ms;
      bestLength = prefix.length;
    }
  }
  return best;
}

/** Options of one command run. */
export interface RunOptions {
  /** Overrides `timeBudget(command)`. */
  timeoutMs?: number;
  /**
   * How a `Continue (y/n)?` question is answered. Default false: answer `n`, so the node does not act,
   * and fail with SSHError saying the command needs confirmation. True answers `y`; the calling tool
   * decides who may ask for that.
   */
  confirm?: boolean;
}
