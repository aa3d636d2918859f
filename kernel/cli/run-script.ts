// What a thin scripts/<name>.ts entry point calls: run that one command with the process's arguments
// and exit with its code.
import { runNamed } from './dispatch.ts';
import { processIo } from './io.ts';

export async function runCommand(name: string): Promise<never> {
  return exitWith(await runNamed(name, process.argv.slice(2), processIo()));
}

/**
 * Exits once stdout and stderr have drained. An explicit exit, because a command may leave a handle
 * open (a pooled SSH connection, a watcher) that would otherwise keep the process alive after its
 * result; waiting for the drain first, because a piped stdout may still hold the result (a JSON export).
 */
export async function exitWith(code: number): Promise<never> {
  process.exitCode = code;
  await Promise.all(
    [process.stdout, process.stderr].map(
      (s) => new Promise<void>((resolve) => (s.writableNeedDrain ? s.once('drain', resolve) : resolve())),
    ),
  );
  process.exit(code);
}
