// The real CliIo over the process's stdin/stdout/stderr, plus the two things some commands need beyond
// the CliIo contract: reading a secret without echo, and reading all of stdin (a piped scanner report,
// `--password-stdin`). Commands reach those through `askSecret(io, ...)` / `readStdin(io)` so that tests
// hand in their own io with fakes, and an io without them falls back to the process.

import { createInterface } from 'node:readline';
import type { CliIo } from './command.ts';
import { readHiddenLine } from './hidden-input.ts';

/** A CliIo that can also read a secret without echo and read all of stdin. */
export interface TerminalIo extends CliIo {
  askSecret(question: string): Promise<string>;
  readStdin(): Promise<string>;
}

export function processIo(): TerminalIo {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
    ask: askLine,
    askSecret: askHidden,
    readStdin: readAll,
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Reads a secret: through the io's own prompt when it has one, else from the terminal without echo. */
export function askSecret(io: CliIo, question: string): Promise<string> {
  const own = (io as Partial<TerminalIo>).askSecret;
  return own ? own.call(io, question) : askHidden(question);
}

/** All of stdin as text: through the io's own reader when it has one, else the process's stdin. */
export function readStdin(io: CliIo): Promise<string> {
  const own = (io as Partial<TerminalIo>).readStdin;
  return own ? own.call(io) : readAll();
}

function askLine(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  return new Promise((resolve) => {
    // Ctrl-D or Ctrl-C closes the interface without an answer: treat it as an empty (negative) answer.
    let answered = false;
    rl.on('close', () => {
      if (!answered) resolve('');
    });
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
  });
}

/** A secret typed on the process's terminal, without echo (kernel/cli/hidden-input.ts). */
function askHidden(question: string): Promise<string> {
  return readHiddenLine(process.stdin, process.stdout, question);
}

async function readAll(): Promise<string> {
  // Reading a terminal would wait for Ctrl-D with no prompt: the input was meant to be piped.
  if (process.stdin.isTTY) throw new Error('stdin is a terminal: pipe the input in, or name a file');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
