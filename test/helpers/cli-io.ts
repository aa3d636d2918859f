// A CLI io for tests: what a command prints is kept, it is never a terminal, and its prompts and
// standard input are answered from the options.
import type { CliIo } from '../../kernel/cli/command.ts';

export type CapturedIo = CliIo & { stdout: string; stderr: string };

export function captureIo(
  env: NodeJS.ProcessEnv,
  cwd: string,
  o: { answer?: string; stdin?: string } = {},
): CapturedIo {
  const io: CapturedIo = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    interactive: false,
    ask: () => Promise.resolve(o.answer ?? ''),
    env,
    cwd,
    ...(o.stdin !== undefined ? { readStdin: () => Promise.resolve(o.stdin as string) } : {}),
  };
  return io;
}
