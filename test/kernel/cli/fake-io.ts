import type { CliIo } from '../../../kernel/cli/command.ts';
import type { TerminalIo } from '../../../kernel/cli/io.ts';

export interface FakeIo extends TerminalIo {
  stdout: string;
  stderr: string;
  /** Questions asked through ask / askSecret, in order. */
  asked: string[];
}

/** A CliIo for tests: records output, answers questions from lists, never touches the process. */
export function fakeIo(
  o: {
    interactive?: boolean;
    answers?: string[];
    secrets?: string[];
    stdin?: string;
    env?: NodeJS.ProcessEnv;
    cwd?: string;
  } = {},
): FakeIo {
  const answers = [...(o.answers ?? [])];
  const secrets = [...(o.secrets ?? [])];
  const io: FakeIo = {
    stdout: '',
    stderr: '',
    asked: [],
    out(text) {
      io.stdout += text;
    },
    err(text) {
      io.stderr += text;
    },
    interactive: o.interactive ?? false,
    async ask(question) {
      io.asked.push(question);
      return answers.shift() ?? '';
    },
    async askSecret(question) {
      io.asked.push(question);
      return secrets.shift() ?? '';
    },
    async readStdin() {
      return o.stdin ?? '';
    },
    env: o.env ?? {},
    cwd: o.cwd ?? process.cwd(),
  };
  return io;
}

export type { CliIo };
