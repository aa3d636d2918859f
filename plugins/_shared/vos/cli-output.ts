// Reading a VOS CLI screen: where a command's output ends, what the node asks, and whether it failed.

export const PROMPT = 'admin:';

/** The prompt at the very end of what arrived, on a line of its own (after the output or the echo). */
const PROMPT_AT_END = /(?:^|\n)admin:[ \t]*$/;
const MORE_AT_END = /--More--[ \t]*$/;
const CONFIRM_AT_END = /\(y\/n\)\?[ \t]*$/i;
/** What a node prints when a command did not work (an unknown one adds "No valid command entered"). */
const FAILURE = /Executed command unsuccessfully|No valid command entered|^Invalid command/im;
// eslint-disable-next-line no-control-regex -- terminal control sequences are what is removed
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b[=>]/g;

export type ScreenEnd = 'prompt' | 'more' | 'confirm' | undefined;

/** What the tail of the screen asks for, if anything. */
export function screenEnd(tail: string): ScreenEnd {
  if (PROMPT_AT_END.test(tail)) return 'prompt';
  if (MORE_AT_END.test(tail)) return 'more';
  if (CONFIRM_AT_END.test(tail)) return 'confirm';
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
    // A --More-- page break is erased with CR, spaces, CR before the next lines are drawn.
    .replace(/--More--\r +\r/g, '')
    .replace(/--More--/g, '')
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
