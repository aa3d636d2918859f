// The pager of `file view` and of the `page` option: 20 lines, then a bold question naming the lines
// shown, `options: q=quit, n=next, p=prev, b=begin, e=end (lines 1 - 20 of 57) :` (the text and escapes
// Cisco's unicon VOS plugin matches; a Cisco TechNote shows `end of the file reached` before it on the
// last page). It waits for a key even when everything fit, and `set cli pagination off` does not stop it.

export const OPTIONS_PAGE_LINES = 20;

export class OptionsPager {
  private start = 0;

  constructor(
    private readonly lines: readonly string[],
    private readonly write: (text: string) => void,
  ) {}

  private get lastStart(): number {
    return Math.max(0, Math.floor((this.lines.length - 1) / OPTIONS_PAGE_LINES) * OPTIONS_PAGE_LINES);
  }

  /** Draws the page from `start` and asks. */
  draw(): void {
    const end = Math.min(this.start + OPTIONS_PAGE_LINES, this.lines.length);
    const page = this.lines.slice(this.start, end);
    if (page.length > 0) this.write(`${page.join('\r\n')}\r\n`);
    if (end >= this.lines.length) this.write('end of the file reached');
    this.write(
      `\x1b[1m\r\noptions: q=quit, n=next, p=prev, b=begin, e=end (lines ${Math.min(this.start + 1, end)} - ${end} of ${this.lines.length}) : \x1b[0m`,
    );
  }

  /** One key; true once the reader quit. Keys the question does not name are ignored. */
  key(ch: string): boolean {
    const k = ch.toLowerCase();
    if (!['q', 'n', 'p', 'b', 'e', '\x03'].includes(k)) return false;
    this.write('\r\n');
    if (k === 'q' || k === '\x03') return true;
    if (k === 'n') this.start = Math.min(this.start + OPTIONS_PAGE_LINES, this.lastStart);
    else if (k === 'p') this.start = Math.max(0, this.start - OPTIONS_PAGE_LINES);
    else if (k === 'b') this.start = 0;
    else this.start = this.lastStart;
    this.draw();
    return false;
  }
}
