import type { CliOption } from './command.ts';

/** `--state-dir`: which installation a command works on (every command that touches state takes it). */
export const STATE_DIR_OPTION: CliOption = {
  name: 'state-dir',
  type: 'string',
  description: 'the installation (default: STATE_DIR from the environment or .env)',
};
