import { readdir, writeFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { procStats } from './proc-stat.ts';

/** The lowest priority (highest nice value). */
const LOWEST = 19;

/**
 * Gives every thread of the browser processes this process started the lowest CPU priority, and their
 * scheduling group too, so that a report's layout and printing never take a contended core from the
 * thread that serves every client.
 * Chromium started from the PDF worker process's niced main thread inherits it already; but a browser
 * running as root raises some of its threads again (its UI and GPU threads to -8, a page's renderer to
 * 0), so this is applied again each time a page is opened. Linux only (it reads /proc, and the nice
 * value is per thread there); elsewhere, or when refused, nothing changes. Runs in the PDF worker
 * process, never in the server's.
 */
export async function lowerBrowserPriority(browserName: RegExp): Promise<void> {
  const procs = await procStats();
  // The browsers are this process's children by name; everything below them is theirs.
  const browsers = procs.filter((p) => p.ppid === process.pid && browserName.test(p.comm));
  // Playwright starts the browser in a session of its own, which the scheduler's autogroups weigh as
  // much as the whole server whatever its threads' nice values: the group itself gets the lowest weight.
  for (const b of browsers)
    await writeFile(`/proc/${b.pid}/autogroup`, String(LOWEST)).catch(() => undefined);
  const ours = new Set(browsers.map((p) => p.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs)
      if (ours.has(p.ppid) && !ours.has(p.pid)) {
        ours.add(p.pid);
        grew = true;
      }
  }
  for (const pid of ours) {
    for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
      try {
        setPriority(Number(tid), LOWEST);
      } catch {
        // gone already, or not permitted: that thread keeps its priority
      }
    }
  }
}
