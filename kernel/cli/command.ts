// The contract of one operator subcommand of the kernel CLI (`node --import tsx kernel/cli/main.ts
// <command>`, and the thin `scripts/<name>.ts` entry points). Each file in kernel/cli/commands/ exports
// `command` of this type; the dispatcher finds them there.

/** Where a command talks to the operator. Tests pass their own. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** True when stdin and stdout are a terminal (interactive confirmations need one). */
  interactive: boolean;
  /** Asks a question on the terminal and resolves with the answer line. */
  ask(question: string): Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface CliOption {
  name: string;
  /** `boolean` flags take no value. */
  type: 'string' | 'boolean';
  description: string;
  short?: string;
}

export interface CliCommand {
  /** The spec's name, e.g. `backup_restore`. */
  name: string;
  summary: string;
  /** Extra help text: what it does, examples, exit codes. */
  help: string;
  options: CliOption[];
  /** Runs the command; resolves with the process exit code. */
  run(
    args: { values: Record<string, string | boolean | undefined>; positionals: string[] },
    io: CliIo,
  ): Promise<number>;
}

/** Exit codes every command uses (documented in `--help` and docs/operations.md). */
export const EXIT = {
  OK: 0,
  /** The operation failed (a clear message was printed). */
  FAILED: 1,
  /** Bad usage: unknown option, missing argument. */
  USAGE: 2,
  /** The operator declined, or a confirmation was needed without a terminal and no --yes. */
  DECLINED: 3,
} as const;
