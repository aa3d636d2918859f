// Seed and run counts shared by the fuzz tests (docs/reliability.md gives the long-run command). Tests use a fixed seed (printed with
// every run, so a failure can be replayed); FUZZ_SEED overrides it and FUZZ_RUNS the number of runs.
import type { Parameters } from 'fast-check';

export const DEFAULT_SEED = 20261110;

export function fuzzSeed(): number {
  const raw = process.env.FUZZ_SEED;
  if (raw === undefined || raw === '') return DEFAULT_SEED;
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new RangeError(`FUZZ_SEED must be an integer, not ${raw}`);
  return seed;
}

/** `runs` unless FUZZ_RUNS says otherwise. */
export function fuzzRuns(runs: number): number {
  const raw = process.env.FUZZ_RUNS;
  if (raw === undefined || raw === '') return runs;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`FUZZ_RUNS must be a positive integer, not ${raw}`);
  return n;
}

/** fast-check parameters; `salt` gives each property its own stream from the one seed. */
export function fuzzParameters(runs: number, salt = 0): Parameters<unknown> {
  return { seed: fuzzSeed() + salt, numRuns: fuzzRuns(runs), endOnFailure: false, verbose: 0 };
}

/** Each request or call a property makes is bounded by this; past it the case is a hang. */
export const CASE_TIMEOUT_MS = 20_000;
