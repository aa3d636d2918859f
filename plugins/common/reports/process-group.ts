import { procStats } from './proc-stat.ts';

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
  return (await procStats())
    .filter((p) => p.pgrp === pgid && p.state !== 'Z' && name.test(p.comm))
    .map((p) => p.pid);
}
