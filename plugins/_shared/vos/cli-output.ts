// Reading a VOS CLI screen: where a command's output ends, what the node asks, and whether it failed.

export const PROMPT = 'admin:';

/** The prompt at the very end of what arrived, on a line of its own (after the output or the echo). */
const PROMPT_AT_END = /(?:^|\n)admin:[ \t]*$/;
/**
 * The automatic-pagination question a real node prints after a screenful, in bold and followed by an
 * erase-line (the VOS plugin of Cisco's unicon matches exactly this text); older lab builds drew `--More--`.
 */
const PAGER_TEXT = 'Press <enter> for 1 line, <space> for one page, or <q> to quit';
/** Tested on the screen without its terminal escapes (the question is drawn bold, then erase-line). */
const MORE_AT_END = /(?:--More--|Press <enter> for 1 line, <space> for one page, or <q> to quit)[ \t]*$/;
/**
 * The pager of `file view` and of the `page` option: `options: q=quit, n=next, p=prev, b=begin, e=end
 * (lines 1 - 20 of 123) :` (unicon's VOS patterns; a Cisco TechNote shows it after `file view`).
 */
const OPTIONS_AT_END =
  /options: q=quit, n=next, p=prev, b=begin, e=end \(lines (\d+) - (\d+) of (\d+)\) :[ \t]*$/;
/** `Continue (y/n)?`, and `Would you like to proceed [y/n]?` of `file get`. */
const CONFIRM_AT_END = /(?:\(y\/n\)|\[y\/n\])\?[ \t]*$/i;
/** What a node prints when a command did not work (an unknown one adds "No valid command entered"). */
const FAILURE = /Executed command unsuccessfully|No valid command entered|^Invalid command/im;
// eslint-disable-next-line no-control-regex -- terminal control sequences are what is removed
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]/g;

/** `options-next`: the `options:` pager has lines left; `options-end`: it showed the last one. */
export type ScreenEnd = 'prompt' | 'more' | 'options-next' | 'options-end' | 'confirm' | undefined;

/** What the tail of the screen asks for, if anything. */
export function screenEnd(tail: string): ScreenEnd {
  const plain = tail.replace(ANSI, '');
  if (PROMPT_AT_END.test(plain)) return 'prompt';
  if (MORE_AT_END.test(plain)) return 'more';
  const options = OPTIONS_AT_END.exec(plain);
  if (options) return Number(options[2]) < Number(options[3]) ? 'options-next' : 'options-end';
  if (CONFIRM_AT_END.test(plain)) return 'confirm';
  return undefined;
}

/** True when a `PROMPT_AT_END` check can only be trusted on this much tail. */
export const TAIL_CHARS = 256;

/**
 * The command's output as text: line endings as `\n`, terminal sequences and `--More--` erasures
 * removed, the echoed command line (first line) and the closing prompt dropped.
 */
export function cleanOutput(raw: string, command: string): string {
  let text = raw
    .replace(ANSI, '')
    // A page break is erased with CR (then erase-line, or spaces and CR) before the next lines are drawn.
    .replaceAll(`${PAGER_TEXT}\r`, '')
    .replaceAll(PAGER_TEXT, '')
    .replace(/--More--\r +\r/g, '')
    .replace(/--More--/g, '')
    // The `options:` pager: its question on a line of its own, and the end-of-file notice before it.
    .replace(
      /\r?\n?options: q=quit, n=next, p=prev, b=begin, e=end \(lines \d+ - \d+ of \d+\) :[ \t]*(?:\r?\n)?/g,
      '',
    )
    .replace(/end of the file reached\r?\n?/g, '')
    .replace(/\r+\n/g, '\n')
    .replace(/\r/g, '');
  const firstBreak = text.indexOf('\n');
  const firstLine = firstBreak === -1 ? text : text.slice(0, firstBreak);
  if (firstLine.trim() === command || firstLine.trimEnd().endsWith(command))
    text = firstBreak === -1 ? '' : text.slice(firstBreak + 1);
  text = text.replace(/(?:^|\n)admin:[ \t]*$/, '');
  return text.replace(/\s+$/, '');
}

/** The node's own words when the output says the command failed, else undefined. */
export function failureText(output: string): string | undefined {
  if (!FAILURE.test(output)) return undefined;
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  // The reason is printed just before the failure line; a few lines are enough and keep errors short.
  const text = lines.slice(-6).join(' / ');
  return text.length > 1_000 ? `...${text.slice(-1_000)}` : text;
}
