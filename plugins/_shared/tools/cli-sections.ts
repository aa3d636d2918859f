// Several read-only CLI commands in one tool call, on the node's pooled shell. The first command's
// failure is the call's (no credential, host key not trusted, node unreachable: a coded error); a later
// command that fails (an older release without it, a command error) is reported beside the answers that
// were read, so one missing view does not hide the others. A later command the caller's SSH allowlist
// refuses (the pool asks it about each one) ends the call: it is the caller's refusal, not the node's.
import { ProfilePermissionError, type ClientVault, type Product } from '../../../kernel/sdk/index.ts';
import type { VosState } from './plugin-state.ts';

export interface SectionError {
  command: string;
  error: string;
  message: string;
}

export function codedError(command: string, err: unknown): SectionError {
  const code = (err as { code?: unknown }).code;
  return {
    command,
    error: typeof code === 'string' ? code : 'SSHError',
    message: err instanceof Error ? err.message : String(err),
  };
}

export interface CliReader {
  /** The output of `command`; throws the pool's coded error. */
  run(command: string): Promise<string>;
  /** The output, or undefined after recording the failure in `errors`. */
  tryRun(command: string): Promise<string | undefined>;
  errors: SectionError[];
}

export function cliReader(
  shared: VosState,
  vault: ClientVault,
  product: Product,
  host: string,
  signal: AbortSignal,
): CliReader {
  const errors: SectionError[] = [];
  const run = async (command: string): Promise<string> =>
    (await shared.shells.run(vault, product, host, command, { confirm: false, signal })).output;
  return {
    run,
    errors,
    async tryRun(command) {
      try {
        return await run(command);
      } catch (err) {
        if (signal.aborted || err instanceof ProfilePermissionError) throw err;
        errors.push(codedError(command, err));
        return undefined;
      }
    },
  };
}

/** A short excerpt of an answer no parser recognised (never the whole output). */
export function unrecognised(command: string, output: string): { command: string; excerpt: string } {
  const one = output.replace(/\s+/g, ' ').trim();
  return { command, excerpt: one.length > 160 ? `${one.slice(0, 160)}...` : one || '(no output)' };
}
