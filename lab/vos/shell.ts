import type { CommandContext, CommandOutput, Confirmation } from './commands/types.ts';
import { FAILED } from './commands/types.ts';
import { matchCommand } from './commands/table.ts';

export const PROMPT = 'admin:';
export const MORE = '--More--';
export const INVALID = 'No valid command entered';
const MAX_LINE = 4096;

/** The side of an SSH channel the shell writes to. */
export interface ShellStream {
  write(data: string): unknown;
  end(): unknown;
}

export interface ShellOptions {
  stream: ShellStream;
  context: Omit<CommandContext, 'now'>;
  loginDelayMs: number;
  commandDelaysMs: Record<string, number>;
  /** Terminal height from the pty request; a page is one line less. */
  rows: number;
  /** Echo typed characters back, as a terminal with a pty expects. */
  echo: boolean;
  vmBlock: string[];
  onClose(): void;
}

type Mode = 'starting' | 'prompt' | 'busy' | 'more' | 'confirm' | 'closed';

/**
 * One interactive VOS CLI session: the slow start-up banner, line editing with echo, `--More--` paging
 * until `set cli pagination off`, y/n confirmations, and the admin: prompt after every command.
 */
export class VosShell {
  private mode: Mode = 'starting';
  private line = '';
  private pending = '';
  private pagination = true;
  private queue: string[] = [];
  private afterPaging: (() => void) | undefined;
  private confirmation: { c: Confirmation; command: string } | undefined;
  private lastWasCr = false;
  private escape = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: ShellOptions) {}

  set rows(rows: number) {
    this.o.rows = rows;
  }

  start(): void {
    this.write('Command Line Interface is starting up, please wait ...\r\n');
    this.timer = setTimeout(() => {
      this.write(
        ['', '   Welcome to the Platform Command Line Interface', '', ...this.o.vmBlock, '', ''].join('\r\n'),
      );
      this.showPrompt();
    }, this.o.loginDelayMs);
  }

  /** Stops timers; the channel is being closed from outside. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.mode = 'closed';
  }

  input(data: string): void {
    for (const ch of data) {
      if (this.mode === 'closed') return;
      if (this.mode === 'starting' || this.mode === 'busy') {
        this.pending += ch;
        continue;
      }
      if (this.mode === 'more') {
        this.pageKey(ch);
        continue;
      }
      this.editKey(ch);
    }
  }

  private write(text: string): void {
    if (this.mode !== 'closed') this.o.stream.write(text);
  }

  private showPrompt(): void {
    this.mode = 'prompt';
    this.write(PROMPT);
    this.drain();
  }

  private drain(): void {
    const pending = this.pending;
    this.pending = '';
    if (pending !== '') this.input(pending);
  }

  private editKey(ch: string): void {
    if (this.escape > 0) {
      // Arrow keys and other escape sequences: the CLI has no history here, ignore them.
      if (this.escape === 1) this.escape = ch === '[' || ch === 'O' ? 2 : 0;
      else if (/[A-Za-z~]/.test(ch)) this.escape = 0;
      return;
    }
    if (ch === '\n' && this.lastWasCr) {
      this.lastWasCr = false;
      return;
    }
    this.lastWasCr = ch === '\r';
    if (ch === '\r' || ch === '\n') {
      const line = this.line;
      this.line = '';
      this.write('\r\n');
      if (this.mode === 'confirm') this.answer(line.trim());
      else this.submit(line.trim());
      return;
    }
    if (ch === '\x1b') {
      this.escape = 1;
      return;
    }
    if (ch === '\x03') {
      this.line = '';
      this.write('^C\r\n');
      if (this.mode === 'confirm') this.answer('n');
      else this.showPrompt();
      return;
    }
    if (ch === '\x7f' || ch === '\b') {
      if (this.line.length > 0) {
        this.line = this.line.slice(0, -1);
        if (this.o.echo) this.write('\b \b');
      }
      return;
    }
    // Control characters never reach a command; an endless line is cut, as a terminal buffer would.
    if (ch < ' ' || this.line.length >= MAX_LINE) return;
    this.line += ch;
    if (this.o.echo) this.write(ch);
  }

  private delayFor(command: string): number {
    const lower = command.toLowerCase();
    let best = this.o.commandDelaysMs['*'] ?? 0;
    let bestLength = -1;
    for (const [prefix, ms] of Object.entries(this.o.commandDelaysMs)) {
      if (prefix !== '*' && lower.startsWith(prefix.toLowerCase()) && prefix.length > bestLength) {
        best = ms;
        bestLength = prefix.length;
      }
    }
    return best;
  }

  private submit(command: string): void {
    if (command === '') {
      this.showPrompt();
      return;
    }
    this.mode = 'busy';
    const run = (): void => {
      if (this.mode === 'closed') return;
      const match = matchCommand(command, this.o.context.os.product);
      if (!match) {
        this.record(command, 'invalid');
        this.output({ lines: [FAILED, INVALID] });
        return;
      }
      const out = match.command.run({ ...this.o.context, now: new Date() }, match.args, command);
      if (out.pagination !== undefined) this.pagination = out.pagination;
      if (out.confirm) {
        const confirm = out.confirm;
        this.emit([...out.lines, ...confirm.lines], () => {
          this.confirmation = { c: confirm, command };
          this.mode = 'confirm';
          this.write(`${confirm.prompt} `);
          this.drain();
        });
        return;
      }
      this.record(command, out.outcome ?? 'ok');
      this.output(out);
    };
    const delay = this.delayFor(command);
    if (delay > 0) this.timer = setTimeout(run, delay);
    else run();
  }

  private answer(reply: string): void {
    const pending = this.confirmation;
    if (!pending) return this.showPrompt();
    if (/^(y|yes)$/i.test(reply) || /^(n|no)$/i.test(reply)) {
      this.confirmation = undefined;
      const yes = /^y/i.test(reply);
      const out = yes ? pending.c.yes() : pending.c.no();
      this.record(pending.command, yes ? (out.outcome ?? 'ok') : 'cancelled');
      this.mode = 'busy';
      this.output(out);
      return;
    }
    this.write(`${pending.c.prompt} `);
  }

  private record(command: string, outcome: 'ok' | 'failed' | 'invalid' | 'cancelled'): void {
    const c = this.o.context;
    c.log.command({ node: c.os.node, user: c.user, command, outcome });
  }

  private output(out: CommandOutput): void {
    const lines = out.lines.length > 0 ? [...out.lines, ''] : [];
    this.emit(lines, () => {
      if (out.close) this.close();
      else this.showPrompt();
    });
  }

  /** Writes lines, a page at a time behind `--More--` while pagination is on. */
  private emit(lines: string[], then: () => void): void {
    const page = Math.max(1, this.o.rows - 1);
    if (!this.pagination || lines.length <= page) {
      if (lines.length > 0) this.write(`${lines.join('\r\n')}\r\n`);
      then();
      return;
    }
    this.write(`${lines.slice(0, page).join('\r\n')}\r\n${MORE}`);
    this.queue = lines.slice(page);
    this.afterPaging = then;
    this.mode = 'more';
  }

  private pageKey(ch: string): void {
    const page = Math.max(1, this.o.rows - 1);
    const clear = `\r${' '.repeat(MORE.length)}\r`;
    if (ch === '\n' && this.lastWasCr) {
      this.lastWasCr = false;
      return;
    }
    this.lastWasCr = ch === '\r';
    const take =
      ch === ' ' ? page : ch === '\r' || ch === '\n' ? 1 : ch === 'q' || ch === 'Q' || ch === '\x03' ? -1 : 0;
    if (take === 0) return;
    this.write(clear);
    if (take > 0) {
      const next = this.queue.splice(0, take);
      this.write(`${next.join('\r\n')}\r\n`);
      if (this.queue.length > 0) {
        this.write(MORE);
        return;
      }
    } else this.queue = [];
    const then = this.afterPaging;
    this.afterPaging = undefined;
    this.mode = 'busy';
    then?.();
  }

  private close(): void {
    this.mode = 'closed';
    this.o.onClose();
  }
}
