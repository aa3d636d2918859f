// How operator commands take a managed node's password: piped on stdin (`--password-stdin`, as
// `docker login` does) or typed twice on the terminal without echo. Never from the command line, where
// `ps`, /proc/<pid>/cmdline and shell history show it to others.
import { EXIT, type CliIo, type CliOption } from './command.ts';
import { askSecret, readStdin } from './io.ts';

export const PASSWORD_STDIN_OPTION: CliOption = {
  name: 'password-stdin',
  type: 'boolean',
  description: 'read the password from stdin (one line)',
};

/**
 * Declared only to be refused with a clear message: without it a mistyped `--password x` would be an
 * unknown option, and an operator could keep trying variants with the secret on the command line.
 */
export const REFUSED_PASSWORD_OPTION: CliOption = {
  name: 'password',
  short: 'p',
  type: 'string',
  description: 'refused (ps shows every argument): use --password-stdin or the prompt',
};

export const PASSWORD_ARGV_REFUSAL =
  'a password is never taken from the command line (ps and shell history show it): pipe it with ' +
  '--password-stdin, or leave both out to type it on the terminal without echo';

/** A password or an exit code after a message; the password never appears in any message. */
export type PasswordResult = { password: string } | { exit: number; message: string };

/** One line from stdin: a single trailing newline (from `echo` or a file) is not part of the password. */
export async function passwordFromStdin(io: CliIo): Promise<PasswordResult> {
  let text: string;
  try {
    text = await readStdin(io);
  } catch (err) {
    return { exit: EXIT.USAGE, message: (err as Error).message };
  }
  const line = text.replace(/\r?\n$/, '');
  if (line === '') return { exit: EXIT.FAILED, message: 'no password on stdin' };
  if (/[\r\n]/.test(line))
    return { exit: EXIT.FAILED, message: 'stdin holds more than one line; nothing stored' };
  return { password: line };
}

/** Typed twice on the terminal, without echo. */
export async function passwordFromTerminal(io: CliIo): Promise<PasswordResult> {
  const first = await askSecret(io, 'Password (not echoed): ');
  if (first === '') return { exit: EXIT.DECLINED, message: 'no password given' };
  const again = await askSecret(io, 'Password again: ');
  if (again !== first) return { exit: EXIT.FAILED, message: 'the two passwords differ; nothing stored' };
  return { password: first };
}
