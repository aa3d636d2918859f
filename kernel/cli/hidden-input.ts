// Reads one line from a terminal with nothing echoed, so that a password never appears on the screen,
// in a terminal recording or in scroll-back. Takes its streams as arguments so that a test can hand it
// a fake terminal; kernel/cli/io.ts passes the process's own.

/** The part of a TTY read stream used here (process.stdin when it is a terminal). */
export interface TtyInput extends NodeJS.EventEmitter {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode(mode: boolean): unknown;
  resume(): unknown;
  pause(): unknown;
}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const ESC = '\u001b';

/**
 * Prompts with `question` on `output` and reads a line from `input` in raw mode, echoing nothing.
 * Backspace deletes the last character, Ctrl-U the whole line; escape sequences (arrow keys) are
 * ignored. Enter ends the line. Ctrl-C, Ctrl-D on an empty line, or the end of the input abort: the
 * answer is then ''. The terminal's previous mode is restored in every case, and the stream paused so
 * that it does not hold the process open.
 */
export function readHiddenLine(
  input: TtyInput,
  output: { write(text: string): unknown },
  question: string,
): Promise<string> {
  if (!input.isTTY) return Promise.resolve('');
  const wasRaw = input.isRaw === true;
  return new Promise((resolve) => {
    let value: string[] = [];
    let escape = false;
    let done = false;
    const finish = (result: string): void => {
      if (done) return;
      done = true;
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('close', onEnd);
      input.off('error', onEnd);
      try {
        input.setRawMode(wasRaw);
      } finally {
        input.pause();
        output.write('\n');
        value = [];
        resolve(result);
      }
    };
    const onEnd = (): void => finish('');
    const onData = (chunk: Buffer | string): void => {
      for (const ch of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (escape) {
          // CSI sequences end on a letter or ~ ("\x1b[A", "\x1b[3~"); the [ itself is skipped.
          if (/[A-Za-z~]/.test(ch)) escape = false;
          continue;
        }
        if (ch === '\r' || ch === '\n') return finish(value.join(''));
        if (ch === CTRL_C) return finish('');
        if (ch === CTRL_D) {
          if (value.length === 0) return finish('');
          continue;
        }
        if (ch === ESC) escape = true;
        else if (ch === '\u007f' || ch === '\b') value.pop();
        else if (ch === CTRL_U) value = [];
        else if (ch >= ' ') value.push(ch);
      }
    };
    try {
      input.setRawMode(true);
    } catch {
      // Not switchable to raw mode: reading would echo the password, so nothing is read.
      finish('');
      return;
    }
    // Prompted only once echo is off: keys typed the moment the prompt shows are not echoed either.
    output.write(question);
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('close', onEnd);
    input.on('error', onEnd);
    input.resume();
  });
}
