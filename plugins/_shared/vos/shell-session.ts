// One interactive VOS CLI shell: log in once, turn paging off, then run commands one after another.
import { StringDecoder } from 'node:string_decoder';
import type { Client as SshClient, ClientChannel } from 'ssh2';
import { SSHError } from '../../../kernel/sdk/index.ts';
import { cleanOutput, failureText, screenEnd, TAIL_CHARS } from './cli-output.ts';
import { DEFAULT_TIME_BUDGET_MS, type RunOptions } from './command-policy.ts';
import { redactSecretOutput } from './secret-output.ts';
import { openShell, type ConnectOptions } from './ssh-connect.ts';

/** Default cap on one command's output: far above any VOS command, below what would hurt the server. */
export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
export const TRUNCATION_MARKER = '[output truncated by the server: over the size limit]';

export interface SessionOptions extends ConnectOptions {
  /**
   * From connecting to a shell ready for commands (the first `admin:` prompt, then paging turned off);
   * a real node takes 8 s or more. Default 30 s.
   */
  loginTimeoutMs?: number;
  /** Output beyond this is dropped and the marker appended. Default 4 MiB. */
  maxOutputBytes?: number;
}

export interface CommandResult {
  /** The command's output, echo and prompt removed, lines joined with `\n`. */
  output: string;
  /** True when the output went over the size limit and was cut (the marker ends `output`). */
  truncated: boolean;
}

/** Least time `set cli pagination off` gets at login, however late the prompt came (it answers at once). */
const PAGINATION_MIN_MS = 1_000;

/** Raised when the shell was closed before the command was written: nothing ran, a retry is safe. */
export class ShellClosedError extends SSHError {}

interface Pending {
  chunks: string[];
  bytes: number;
  truncated: boolean;
  /** The last characters seen, kept even when the output is cut, to find the prompt. */
  tail: string;
  /** Characters seen in all; `tail` ends at this position. */
  seen: number;
  onData(): void;
}

/**
 * Commands are serialised (a shell runs one at a time) through a promise chain. A command that runs
 * past its budget closes the shell: its state is unknown, and the next caller gets a fresh one.
 * Output over the size cap is cut with `TRUNCATION_MARKER` rather than failing, because the node has
 * already run the command and the caller should see what it did; reading continues to the prompt so
 * the shell stays usable.
 */
export class ShellSession {
  readonly #client: SshClient;
  readonly #channel: ClientChannel;
  readonly #label: string;
  readonly #maxOutputBytes: number;
  #queue: Promise<unknown> = Promise.resolve();
  #pending: Pending | undefined;
  #queued = 0;
  #closed = false;
  #closeListeners: (() => void)[] = [];
  #failPending: ((err: Error) => void) | undefined;
  /** Time from connecting to the shell being ready for commands. */
  loginMs = 0;

  private constructor(
    open: { client: SshClient; channel: ClientChannel },
    label: string,
    maxOutputBytes: number,
  ) {
    this.#client = open.client;
    this.#channel = open.channel;
    this.#label = label;
    this.#maxOutputBytes = maxOutputBytes;
    // Decoders keep a UTF-8 character split across two packets whole.
    const out = new StringDecoder('utf8');
    const err = new StringDecoder('utf8');
    this.#channel.on('data', (d: Buffer) => this.#onData(out.write(d)));
    this.#channel.stderr.on('data', (d: Buffer) => this.#onData(err.write(d)));
    this.#channel.on('close', () => this.close());
    this.#client.on('close', () => this.close());
    this.#client.on('error', () => this.close());
  }

  /** Connects, waits for the prompt after the start-up banner, and turns automatic paging off. */
  static async open(o: SessionOptions): Promise<ShellSession> {
    const started = Date.now();
    const budget = o.loginTimeoutMs ?? 30_000;
    const deadline = started + budget;
    const shell = await openShell(o);
    const session = new ShellSession(shell, o.label, o.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
    try {
      await session.#exchange(undefined, { timeoutMs: Math.max(1, deadline - Date.now()) }, 'login', budget);
      // Part of logging in: a node that shows the prompt and then answers nothing fails within the
      // login budget too, not a command budget later (a second at least, for a prompt come late).
      const left = Math.max(PAGINATION_MIN_MS, deadline - Date.now());
      await session.#exchange('set cli pagination off', { timeoutMs: left }, 'setup', Math.max(left, budget));
    } catch (err) {
      session.close();
      throw err;
    }
    session.loginMs = Date.now() - started;
    return session;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Commands running or waiting on this shell. */
  get busy(): boolean {
    return this.#queued > 0;
  }

  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#closeListeners.push(listener);
  }

  /**
   * Runs one command (already checked with `validateCommand`) after those queued before it. A node
   * failure message (`Executed command unsuccessfully`, unknown command) and a refused confirmation
   * are SSHError; a timeout is SSHError and closes the shell.
   */
  run(command: string, options: RunOptions = {}): Promise<CommandResult> {
    this.#queued++;
    const result = this.#queue.then(() => this.#runNow(command, options));
    this.#queue = result.catch(() => undefined);
    return result.finally(() => this.#queued--);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#failPending?.(new SSHError(`the SSH shell to ${this.#label} closed while a command was running`));
    try {
      this.#channel.close();
    } catch {
      // Already gone: closing is best effort.
    }
    this.#client.end();
    for (const listener of this.#closeListeners.splice(0)) listener();
  }

  async #runNow(command: string, options: RunOptions): Promise<CommandResult> {
    if (this.#closed)
      throw new ShellClosedError(`the SSH shell to ${this.#label} is closed; the command was not sent`);
    const screen = await this.#exchange(command, options, 'command');
    // Secrets leave the output here, before anything (result, error, log, audit) can quote it.
    const output = redactSecretOutput(command, cleanOutput(screen.text, command));
    if (screen.refused)
      throw new SSHError(
        `"${command}" on ${this.#label} asks for confirmation (Continue (y/n)?); it was answered "n" and ` +
          'the command was not run. Run it again with confirmation if it is intended.',
      );
    const failure = failureText(output);
    if (failure !== undefined) throw new SSHError(`"${command}" failed on ${this.#label}: ${failure}`);
    return {
      output: screen.truncated ? `${output}\n${TRUNCATION_MARKER}` : output,
      truncated: screen.truncated,
    };
  }

  /**
   * Writes the command (if any) and reads until the next prompt, paging past either pager and answering
   * `(y/n)?` by policy. `refused` tells that a confirmation was answered "n".
   */
  #exchange(
    command: string | undefined,
    options: RunOptions,
    what: 'login' | 'setup' | 'command',
    /** The budget a timeout names (the whole login's, when this is what is left of it). */
    budgetMs?: number,
  ): Promise<{ text: string; truncated: boolean; refused: boolean }> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIME_BUDGET_MS;
    return new Promise((resolve, reject) => {
      let refused = false;
      let scanned = 0;
      const pending: Pending = {
        chunks: [],
        bytes: 0,
        truncated: false,
        tail: '',
        seen: 0,
        onData: () => {
          // Only look at what arrived since the last answer, so one question is answered once.
          const tail = pending.tail.slice(Math.max(0, scanned - (pending.seen - pending.tail.length)));
          const end = screenEnd(tail);
          if (end === 'prompt') return done();
          if (end === 'more') this.#write(' ');
          // The `options:` pager (file view, the `page` option): next page until the last, then quit.
          else if (end === 'options-next') this.#write('n');
          else if (end === 'options-end') this.#write('q');
          else if (end === 'confirm' && what !== 'login') {
            refused = options.confirm !== true;
            this.#write(refused ? 'n\n' : 'y\n');
          } else return;
          scanned = pending.seen;
        },
      };
      const finish = (): void => {
        clearTimeout(timer);
        this.#pending = undefined;
        this.#failPending = undefined;
      };
      const done = (): void => {
        finish();
        resolve({ text: pending.chunks.join(''), truncated: pending.truncated, refused });
      };
      this.#failPending = (err) => {
        finish();
        reject(err);
      };
      const timer = setTimeout(() => {
        const seconds = Math.round((budgetMs ?? timeoutMs) / 100) / 10;
        const err =
          what === 'login'
            ? new SSHError(`${this.#label} did not show the admin: prompt within ${seconds} s of logging in`)
            : what === 'setup'
              ? new SSHError(
                  `${this.#label} showed the admin: prompt but did not answer "${command}" within the ${seconds} s login budget; the shell was closed`,
                )
              : new SSHError(
                  `"${command}" did not finish within ${seconds} s on ${this.#label}; the shell was closed ` +
                    'because its state is unknown (the command may still have taken effect)',
                );
        this.#failPending?.(err);
        this.close();
      }, timeoutMs);
      this.#pending = pending;
      if (command !== undefined) this.#write(`${command}\n`);
    });
  }

  #write(text: string): void {
    if (!this.#closed) this.#channel.write(text);
  }

  #onData(text: string): void {
    const p = this.#pending;
    // Between commands nothing is expected; stray bytes (a late echo, a broadcast) are dropped.
    if (!p) return;
    p.seen += text.length;
    p.tail = (p.tail + text).slice(-TAIL_CHARS);
    if (!p.truncated) {
      const bytes = Buffer.byteLength(text);
      if (p.bytes + bytes <= this.#maxOutputBytes) {
        p.chunks.push(text);
        p.bytes += bytes;
      } else p.truncated = true;
    }
    p.onData();
  }
}
