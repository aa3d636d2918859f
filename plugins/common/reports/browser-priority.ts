import { readdir, readFile, writeFile } from 'node:fs/promises';
import { setPriority } from 'node:os';

/** The lowest priority (highest nice value). */
const LOWEST = 19;

/**
 * Gives every thread of the browser processes this process started the lowest CPU priority, and their
 * scheduling group too, so that a report's layout and printing never take a contended core from the
 * thread that serves every client.
 * Chromium started from the niced PDF worker thread inherits it already; but a browser running as root
 * raises some of its threads again (its UI and GPU threads to -8, a page's renderer to 0), so this is
 * applied again each time a page is opened. Linux only (it reads /proc, and the nice value is per thread
 * there); elsewhere, or when refused, nothing changes. Runs in the PDF worker, off the serving thread.
 */
export async function lowerBrowserPriority(browserName: RegExp): Promise<void> {
  let procs: { pid: number; ppid: number; comm: string }[];
  try {
    const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d));
    procs = (await Promise.all(pids.map(statOf))).filter(
      (p): p is { pid: number; ppid: number; comm: string } => p !== null,
    );
  } catch {
    return;
  }
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

async function statOf(pid: string): Promise<{ pid: number; ppid: number; comm: string } | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ")".
    const close = stat.lastIndexOf(')');
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    return { pid: Number(pid), ppid, comm: stat.slice(stat.indexOf('(') + 1, close) };
  } catch {
    return null;
  }
}
