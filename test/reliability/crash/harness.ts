// What every crash scenario shares: a seeded random source (the seed is printed, CRASH_SEED replays a
// run), the result it reports, and the checks made after every restart.
import { join } from 'node:path';
import { processRuns } from '../../../kernel/store/leftovers.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import {
  freePort,
  spawnServer,
  type ServerProcess,
  type ServerProcessOptions,
} from '../../helpers/server-process.ts';
import { checkStateFiles, type StateReport } from './state-files.ts';

/** mulberry32: small, fast, good enough to spread kill delays; reproducible from its seed. */
export function rng(seed: number): {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(a: readonly T[]): T;
} {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (a) => a[Math.floor(next() * a.length)] as never,
  };
}

export function seedFromEnv(): number {
  const fromEnv = Number(process.env.CRASH_SEED);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.floor(Math.random() * 2 ** 31) + 1;
}

export interface ScenarioOptions {
  iterations: number;
  seed: number;
  /** Progress lines (the bench prints them; tests keep them for a failure message). */
  log?: (line: string) => void;
}

export interface ScenarioResult {
  scenario: string;
  seed: number;
  iterations: number;
  /** Kills that landed while an operation of the scenario was under way (not yet answered). */
  killsMidOperation: number;
  /** Operations acknowledged to the client before a kill (each checked after the restart). */
  acknowledged: number;
  /** Operations under way at a kill (either outcome is allowed; each is resolved after the restart). */
  inFlight: number;
  /** Broken invariants: each says which iteration and what. Empty when the scenario holds. */
  violations: string[];
  /** Temporary files left by interrupted writes, as counted after the last restart. */
  leftovers: number;
  /** Startup times of the restarts (ms), to size loops. */
  startupMs: number[];
}

export function newResult(scenario: string, o: ScenarioOptions): ScenarioResult {
  return {
    scenario,
    seed: o.seed,
    iterations: 0,
    killsMidOperation: 0,
    acknowledged: 0,
    inFlight: 0,
    violations: [],
    leftovers: 0,
    startupMs: [],
  };
}

export function summary(r: ScenarioResult): string {
  const sorted = [...r.startupMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return (
    `${r.scenario}: seed ${r.seed}, ${r.iterations} kill/restart cycles, ${r.killsMidOperation} kills mid-operation, ` +
    `${r.acknowledged} acknowledged and ${r.inFlight} in-flight operations checked, ${r.leftovers} leftover temporary files, ` +
    `${r.startupMs.length > 0 ? `startup median ${median} ms` : 'kills before startup completed'}, ${r.violations.length} violations`
  );
}

/** A state directory with the cached server keys (key generation is not what these tests exercise). */
export function crashStateDir(prefix: string): { dir: string; cleanup: () => void } {
  const t = tempStateDir(prefix);
  seedServerKeys(t.dir);
  return t;
}

/** Starts the server and waits for it; a start that fails is a violation (the caller records it). */
export async function startAndWait(
  o: ServerProcessOptions,
  result: ScenarioResult,
): Promise<{ server: ServerProcess; url: string }> {
  const server = spawnServer(o);
  const url = await server.ready;
  result.startupMs.push(Math.round(performance.now() - server.spawnedAt));
  return { server, url };
}

/** The state-file walk after a restart: every problem is a violation of iteration `i`. */
export async function checkState(stateDir: string, i: number, result: ScenarioResult): Promise<StateReport> {
  const report = await checkStateFiles(stateDir);
  for (const p of report.problems) result.violations.push(`cycle ${i}: ${p}`);
  result.leftovers = report.leftovers.length;
  // The restarted server removes what the killed one's atomic writes left (partial backups go when
  // its backup watchdog runs: the backup scenario checks those).
  for (const rel of report.leftovers) {
    const pid = /\.(\d+)\.[0-9a-f]{12}\.tmp$/.exec(rel)?.[1];
    if (pid !== undefined && !processRuns(Number(pid)))
      result.violations.push(`cycle ${i}: ${rel}, left by a killed write, is still there after the restart`);
  }
  return report;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export { freePort, join };
