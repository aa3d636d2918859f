import { readdir, readFile } from 'node:fs/promises';

/** How long the processes of a closed browser get to exit on their own. */
const EXIT_WAIT_MS = 2_000;
const POLL_MS = 50;

/**
 * Ends what is left of a closed browser's process group `pgid`: Chromium's zygotes and renderers
 * usually exit with the browser, but one that lingers would hold its memory for the server's life.
 * Waits up to two seconds for them, then kills the ones still alive. Only processes of that group whose
 * name matches `name` are touched, so a group id reused by something else is left alone. Zombies are
 * not counted: they hold no memory, and their new parent (tini in the container) reaps them.
 * Linux only (it reads /proc); elsewhere nothing is found and nothing is done.
 */
export async function endProcessGroup(pgid: number, name: RegExp): Promise<void> {
  const deadline = Date.now() + EXIT_WAIT_MS;
  for (;;) {
    const left = await liveMembers(pgid, name);
    if (left.length === 0) return;
    if (Date.now() >= deadline) {
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      return;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Live (not zombie) processes of group `pgid` named like `name`. */
async function liveMembers(pgid: number, name: RegExp): Promise<number[]> {
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const pid of pids) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split at the last ")".
      const close = stat.lastIndexOf(')');
      const [state, , pgrp] = stat.slice(close + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z' && name.test(stat.slice(stat.indexOf('(') + 1, close)))
        found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
