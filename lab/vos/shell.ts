import type { CommandContext, CommandOutput, Confirmation } from './commands/types.ts';
import { FAILED } from './commands/types.ts';
import { matchCommand } from './commands/table.ts';
import { OptionsPager } from './options-pager.ts';

export const PROMPT = 'admin:';
/**
 * The automatic-pagination question, in bold, that a real node prints after a screenful (the VOS
 * plugin of Cisco's unicon, src/unicon/plugins/vos/patterns.py and its mock data, matches exactly this
 * text with these escapes). Any key the question names erases it (`\r` then erase-line).
 */
export const PAGER = '\x1b[1mPress <enter> for 1 line, <space> for one page, or <q> to quit\x1b[0m\x1b[K';
const PAGER_ERASE = '\r\x1b[K';
/**
 * The second line an unknown command prints after `Executed command unsuccessfully`. The first line is
 * what Tenable's UCOS fingerprint (ssh_get_info.nasl) keys on after sending a non-VOS command; this
 * second line is not confirmed by a stored source.
 */
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

type Mode = 'starting' | 'prompt' | 'busy' | 'more' | 'options' | 'confirm' | 'closed';

/**
 * One interactive VOS CLI session: the slow start-up banner, line editing with echo, automatic paging
 * (PAGER after each screenful) until `set cli pagination off`, y/n confirmations, and the admin: prompt
 * after every command.
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
  private optionsPager: OptionsPager | undefined;

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
      if (this.mode === 'options') {
        this.optionsKey(ch);
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
      const out = match.command.run(
        { ...this.o.context, now: new Date(), pagination: this.pagination },
        match.args,
        command,
      );
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
    if (out.paged) {
      this.optionsPager = new OptionsPager(out.lines, (text) => this.write(text));
      this.afterPaging = () => this.showPrompt();
      this.mode = 'options';
      this.optionsPager.draw();
      return;
    }
    const lines = out.lines.length > 0 ? [...out.lines, ''] : [];
    this.emit(lines, () => {
      if (out.close) this.close();
      else this.showPrompt();
    });
  }

  /** Writes lines, a screenful at a time behind the PAGER question while pagination is on. */
  private emit(lines: string[], then: () => void): void {
    const page = Math.max(1, this.o.rows - 1);
    if (!this.pagination || lines.length <= page) {
      if (lines.length > 0) this.write(`${lines.join('\r\n')}\r\n`);
      then();
      return;
    }
    this.write(`${lines.slice(0, page).join('\r\n')}\r\n${PAGER}`);
    this.queue = lines.slice(page);
    this.afterPaging = then;
    this.mode = 'more';
  }

  private optionsKey(ch: string): void {
    if (!this.optionsPager?.key(ch)) return;
    this.optionsPager = undefined;
    const then = this.afterPaging;
    this.afterPaging = undefined;
    this.mode = 'busy';
    then?.();
  }

  private pageKey(ch: string): void {
    const page = Math.max(1, this.o.rows - 1);
    if (ch === '\n' && this.lastWasCr) {
      this.lastWasCr = false;
      return;
    }
    this.lastWasCr = ch === '\r';
    const take =
      ch === ' ' ? page : ch === '\r' || ch === '\n' ? 1 : ch === 'q' || ch === 'Q' || ch === '\x03' ? -1 : 0;
    if (take === 0) return;
    this.write(PAGER_ERASE);
    if (take > 0) {
      const next = this.queue.splice(0, take);
      this.write(`${next.join('\r\n')}\r\n`);
      if (this.queue.length > 0) {
        this.write(PAGER);
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
