import { readdir, readFile } from 'node:fs/promises';

/** What /proc/<pid>/stat says of one process. */
export interface ProcStat {
  pid: number;
  comm: string;
  /** R, S, D, Z...: a zombie (Z) holds no memory and is its parent's to reap. */
  state: string;
  ppid: number;
  /** Its process group. */
  pgrp: number;
}

/**
 * Every process /proc lists now; none where there is no /proc (Linux only), and none of those that end
 * while it is read.
 */
export async function procStats(): Promise<ProcStat[]> {
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  const stats = await Promise.all(pids.map(procStat));
  return stats.filter((s): s is ProcStat => s !== null);
}

async function procStat(pid: string): Promise<ProcStat | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split at the last ")".
    const close = stat.lastIndexOf(')');
    const [state = '', ppid, pgrp] = stat.slice(close + 2).split(' ');
    return {
      pid: Number(pid),
      comm: stat.slice(stat.indexOf('(') + 1, close),
      state,
      ppid: Number(ppid),
      pgrp: Number(pgrp),
    };
  } catch {
    return null;
  }
}
