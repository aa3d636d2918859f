// Runs the server with crash-hook.ts, so it SIGKILLs itself just before a chosen file-system step.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnServer, type ServerProcess, type ServerProcessOptions } from '../../helpers/server-process.ts';

export const CRASH_HOOK = join(import.meta.dirname, 'crash-hook.ts');

export interface CrashPoint {
  /** Kill before the n-th counted step (1-based) among those on paths matching `match`. */
  at: number;
  /** A regular expression on the absolute path; default: anything below the state directory but logs/. */
  match?: string;
  /** When the step is a write or a copy, do half of it first (a torn write). */
  torn?: boolean;
  /** Append every counted step to this file. */
  log?: string;
}

/** Spawns the server armed to crash at `point`; the caller drives it (startup, or requests) to that step. */
export function spawnArmed(o: ServerProcessOptions, point: CrashPoint): ServerProcess {
  return spawnServer({
    ...o,
    preload: [...(o.preload ?? []), CRASH_HOOK],
    env: {
      ...o.env,
      CRASH_HOOK_AT: String(point.at),
      CRASH_HOOK_TORN: point.torn ? '1' : '0',
      ...(point.match ? { CRASH_HOOK_MATCH: point.match } : {}),
      ...(point.log ? { CRASH_HOOK_LOG: point.log } : {}),
    },
  });
}

/**
 * Starts the server armed at `point` and waits: true when it killed itself during startup, false when
 * it started (the step is later, or never comes; it is left running for the caller).
 */
export async function crashDuringStart(s: ServerProcess): Promise<boolean> {
  const outcome = await Promise.race([
    s.ready.then(
      () => 'ready' as const,
      () => 'exited' as const,
    ),
    s.exited.then(() => 'exited' as const),
  ]);
  if (outcome === 'ready') return false;
  const { signal } = await s.exited;
  if (signal !== 'SIGKILL') throw new Error(`the armed server failed by itself: ${s.output().trim()}`);
  return true;
}

/** The steps counted in a hook log ("<n> <op> <path>" lines). */
export function countedSteps(log: string): { op: string; path: string }[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [, op, ...rest] = l.split(' ');
      return { op: op as string, path: rest.join(' ') };
    });
}
