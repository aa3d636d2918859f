// How long a real VOS node takes: the CLI start-up before the first admin: prompt, and the commands that
// read a whole cluster or a database before they answer. `LAB_TIMING=realistic` uses these; `fast` (the
// default) keeps the test suite quick.

export type LabTiming = 'fast' | 'realistic';

export const TIMINGS: readonly LabTiming[] = ['fast', 'realistic'];

/** A real node prints its banner and the prompt 8 s or more after the SSH login. */
export const REALISTIC_LOGIN_DELAY_MS = 8_000;

/**
 * Per command prefix (longest wins). The slow ones ask every node of the cluster (replication, the
 * backup history from the DRF master) or the perfmon collector; `show` commands answer within a second.
 */
export const REALISTIC_COMMAND_DELAYS_MS: Readonly<Record<string, number>> = {
  '*': 150,
  'utils dbreplication runtimestate': 6_000,
  'show perf query': 2_500,
  'utils disaster_recovery history': 3_000,
  'utils service list': 1_500,
  'utils diagnose test': 9_000,
  'utils core active list': 1_000,
  'show risdb query': 1_500,
  'show network cluster': 800,
  'run sql': 700,
};
