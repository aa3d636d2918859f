import type { AppLogger } from '../../logging/app-log.ts';
import type { Watchdog } from '../../watchdogs/runner.ts';
import type { StateBackend } from './state-backend.ts';

/** How long a job's lease lasts without renewal: a dead holder's job moves to another within this. */
export const JOB_LEASE_MS = 30_000;

/**
 * A watchdog that must run on one instance at a time when several share the state (backups, the
 * startup tokens' renewal, the auth housekeeping): each run first takes the lease `job:<name>`, and an
 * instance that does not get it skips the run. The holder keeps the lease between runs with a renewal
 * every third of its time, so the job stays where it is while that instance lives (a backup is not made
 * twice because two instances took turns), and moves to another within JOB_LEASE_MS after it dies.
 * With the local backend the job is returned as it is.
 */
export function singletonJob(
  dog: Watchdog,
  state: StateBackend,
  log: AppLogger,
  leaseMs: number = JOB_LEASE_MS,
): Watchdog {
  if (state.kind === 'local') return dog;
  const lease = `job:${dog.name}`;
  let renewal: NodeJS.Timeout | undefined;
  const stopRenewal = (): void => {
    if (renewal) clearInterval(renewal);
    renewal = undefined;
  };
  return {
    ...dog,
    async run(signal) {
      if (!(await state.leases.acquire(lease, leaseMs))) {
        stopRenewal();
        log.debug({ watchdog: dog.name }, 'another instance holds this job; run skipped');
        return;
      }
      if (!renewal) {
        renewal = setInterval(
          () => {
            state.leases.acquire(lease, leaseMs).then(
              (held) => {
                if (!held) stopRenewal();
              },
              // The store is down: the next run asks again.
              () => undefined,
            );
          },
          Math.floor(leaseMs / 3),
        );
        renewal.unref();
        signal.addEventListener(
          'abort',
          () => {
            stopRenewal();
            // Handed over at once on a clean stop, so another instance takes the job at its next run.
            void state.leases.release(lease).catch(() => undefined);
          },
          { once: true },
        );
      }
      await dog.run(signal);
    },
  };
}

/**
 * Runs `fn` while holding the lease `name`, waiting (up to `waitMs`) for another instance that holds it:
 * a step every starting instance takes once, such as writing the clients' startup tokens, then runs on
 * one instance at a time, and the next finds the first one's result. With the local backend `fn` runs
 * at once. The lease outlives a holder that dies by at most `leaseMs`.
 */
export async function withLease<T>(
  state: StateBackend,
  name: string,
  fn: () => Promise<T>,
  o: { leaseMs?: number; waitMs?: number } = {},
): Promise<T> {
  if (state.kind === 'local') return fn();
  const leaseMs = o.leaseMs ?? JOB_LEASE_MS;
  const deadline = Date.now() + (o.waitMs ?? leaseMs * 2);
  while (!(await state.leases.acquire(name, leaseMs))) {
    if (Date.now() >= deadline)
      throw new Error(`another instance has held "${name}" for longer than ${o.waitMs ?? leaseMs * 2} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    return await fn();
  } finally {
    await state.leases.release(name).catch(() => undefined);
  }
}
