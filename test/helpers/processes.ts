// The process table as /proc shows it (Linux): for tests that check what a server started and ended.
import { readdirSync, readFileSync } from 'node:fs';

export interface Proc {
  pid: number;
  ppid: number;
  state: string;
  comm: string;
  /** The nice value. */
  nice: number;
}

export function processes(): Proc[] {
  const out: Proc[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ")".
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      out.push({
        pid: Number(d),
        ppid: Number(fields[1]),
        state: fields[0] as string,
        comm: stat.slice(stat.indexOf('(') + 1, close),
        nice: Number(fields[16]),
      });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Every process below `root` (children, grandchildren...), not `root` itself. */
export function descendants(root = process.pid): Proc[] {
  const all = processes();
  const ours = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (ours.has(p.ppid) && !ours.has(p.pid)) {
        ours.add(p.pid);
        grew = true;
      }
  }
  return all.filter((p) => p.pid !== root && ours.has(p.pid));
}

/** A process's command line, '' once it is gone. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** A process's environment as NAME=value lines, '' once it is gone. */
export function environment(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').join('\n');
  } catch {
    return '';
  }
}

/** Live descendants (not zombies) whose command line contains `needle`. */
export function liveDescendantsRunning(needle: string, root = process.pid): Proc[] {
  return descendants(root).filter((p) => p.state !== 'Z' && commandLine(p.pid).includes(needle));
}

export async function waitFor(what: string, ok: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
