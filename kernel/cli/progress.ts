// Progress reporting for long operator work (backups, uploads, key rotation). On a terminal it redraws
// one line in place (a bar when the total is known, a counter otherwise); without a terminal (CI, log
// files) it prints a plain line now and then, so logs show progress without thousands of lines.
// Everything goes to stderr (io.err): stdout stays clean for a command's result (JSON, a file path).

import type { CliIo } from './command.ts';

export interface Progress {
  /** Records `n` more units of work done (default 1). */
  tick(n?: number): void;
  /** Sets or corrects the total when it becomes known after the start (e.g. files counted lazily). */
  setTotal(total: number): void;
  /** Ends the progress display with a final line. Further calls do nothing. */
  done(): void;
}

const BAR_WIDTH = 30;
/** Without a terminal: a line at each 10% step, or after this long without one (unknown totals). */
const PLAIN_INTERVAL_MS = 5_000;

export function createProgress(
  io: CliIo,
  label: string,
  total?: number,
  now: () => number = Date.now,
): Progress {
  let count = 0;
  let max = total;
  let finished = false;
  let lastPlainAt = now();
  let lastPlainStep = 0;

  const describe = (): string => {
    if (max === undefined || max <= 0) return `${label} ${count}`;
    const ratio = Math.min(1, count / max);
    const pct = Math.floor(ratio * 100);
    if (!io.interactive) return `${label} ${count}/${max} (${pct}%)`;
    const filled = Math.round(ratio * BAR_WIDTH);
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${pct}% (${count}/${max})`;
  };

  const render = (): void => {
    if (io.interactive) {
      // Carriage return + clear-to-end-of-line redraws in place; the newline comes with done().
      io.err(`\r\x1b[K${describe()}`);
      return;
    }
    const of = max !== undefined && max > 0 ? max : undefined;
    // The last line is done()'s: a plain log shows "100%" once.
    if (of !== undefined && count >= of) return;
    const step = of !== undefined ? Math.floor((count / of) * 10) : 0;
    const t = now();
    if (step > lastPlainStep || t - lastPlainAt >= PLAIN_INTERVAL_MS) {
      lastPlainStep = step;
      lastPlainAt = t;
      io.err(`${describe()}\n`);
    }
  };

  return {
    tick(n = 1): void {
      if (finished) return;
      count += n;
      render();
    },
    setTotal(t: number): void {
      max = t;
    },
    done(): void {
      if (finished) return;
      finished = true;
      io.err(`${io.interactive ? '\r\x1b[K' : ''}${describe()} done\n`);
    },
  };
}

/**
 * Adapts a `{ done, total }` callback (the integrity hasher's, for one) to a progress display that ends
 * by itself when `done` reaches `total`.
 */
export function progressCallback(io: CliIo, label: string): (p: { done: number; total: number }) => void {
  let progress: Progress | undefined;
  let seen = 0;
  return ({ done, total }) => {
    progress ??= createProgress(io, label, total);
    progress.setTotal(total);
    progress.tick(done - seen);
    seen = done;
    if (done >= total) progress.done();
  };
}
