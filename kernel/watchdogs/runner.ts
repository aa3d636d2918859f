import type { AppLogger } from '../logging/app-log.ts';
import type { Metrics } from '../metrics/metrics.ts';

/** The longest delay setTimeout honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface Watchdog {
  name: string;
  intervalMs: number;
  /** Run once as soon as the runner starts (the backup watchdog does). */
  runOnStart: boolean;
  run(signal: AbortSignal): Promise<void>;
}

export interface WatchdogState {
  name: string;
  lastRun?: string;
  lastOk?: boolean;
  lastError?: string;
  running: boolean;
}

/**
 * Runs background checks on their own timers (a timeout re-armed after each run, so a slow run never
 * overlaps itself). `stop` cancels the timers, aborts runs in progress and waits for them to end.
 */
export class WatchdogRunner {
  private readonly dogs = new Map<
    string,
    { dog: Watchdog; timer?: NodeJS.Timeout; current?: Promise<void>; state: WatchdogState }
  >();
  private readonly abort = new AbortController();
  private started = false;

  constructor(
    private readonly log: AppLogger,
    private readonly metrics: Metrics,
  ) {}

  register(dog: Watchdog): void {
    if (this.dogs.has(dog.name)) throw new Error(`watchdog ${dog.name} registered twice`);
    const entry = { dog, state: { name: dog.name, running: false } as WatchdogState };
    this.dogs.set(dog.name, entry);
    if (this.started) this.arm(dog.name, dog.runOnStart ? 0 : dog.intervalMs);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const { dog } of this.dogs.values()) this.arm(dog.name, dog.runOnStart ? 0 : dog.intervalMs);
  }

  /** Runs one watchdog now (on-demand checks) and resolves when it has finished. */
  async runNow(name: string): Promise<WatchdogState> {
    const entry = this.dogs.get(name);
    if (!entry) throw new Error(`no watchdog named ${name}`);
    if (entry.current) await entry.current;
    await this.execute(name);
    return { ...entry.state };
  }

  /**
   * Records the outcome of a run made outside the timer (the integrity check of startup step 4 and the
   * on-demand checks): the state and the `ucmcp_watchdog_status` gauge then say at once what the last
   * check found, instead of "not yet run" until the timer's first run (24 hours for integrity).
   */
  record(name: string, error?: string): void {
    const entry = this.dogs.get(name);
    if (!entry) throw new Error(`no watchdog named ${name}`);
    entry.state.lastRun = new Date().toISOString();
    entry.state.lastOk = error === undefined;
    if (error === undefined) delete entry.state.lastError;
    else entry.state.lastError = error;
    this.metrics.watchdogUp.set({ watchdog: name }, error === undefined ? 1 : 0);
    this.metrics.watchdogLastRun.set({ watchdog: name }, Date.now() / 1000);
  }

  states(): WatchdogState[] {
    return [...this.dogs.values()].map((e) => ({ ...e.state }));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    const running: Promise<void>[] = [];
    for (const e of this.dogs.values()) {
      if (e.timer) clearTimeout(e.timer);
      if (e.current) running.push(e.current);
    }
    await Promise.allSettled(running);
  }

  private arm(name: string, delay: number): void {
    const entry = this.dogs.get(name);
    if (!entry || this.abort.signal.aborted) return;
    // Node fires a timer longer than 2^31-1 ms (24.8 days) after 1 ms: wait in steps instead.
    const step = Math.min(delay, MAX_TIMER_MS);
    entry.timer = setTimeout(() => {
      if (delay > step) {
        this.arm(name, delay - step);
        return;
      }
      void this.execute(name).finally(() => this.arm(name, entry.dog.intervalMs));
    }, step);
  }

  private async execute(name: string): Promise<void> {
    const entry = this.dogs.get(name);
    if (!entry || this.abort.signal.aborted) return;
    entry.state.running = true;
    const started = Date.now();
    entry.current = entry.dog
      .run(this.abort.signal)
      .then(() => {
        entry.state.lastOk = true;
        delete entry.state.lastError;
        this.metrics.watchdogUp.set({ watchdog: name }, 1);
      })
      .catch((err: unknown) => {
        entry.state.lastOk = false;
        entry.state.lastError = (err as Error).message;
        this.metrics.watchdogUp.set({ watchdog: name }, 0);
        this.log.error({ err, watchdog: name }, 'watchdog run failed');
      })
      .finally(() => {
        entry.state.running = false;
        entry.state.lastRun = new Date().toISOString();
        this.metrics.watchdogLastRun.set({ watchdog: name }, Date.now() / 1000);
        this.log.debug({ watchdog: name, ms: Date.now() - started }, 'watchdog run finished');
        delete entry.current;
      });
    await entry.current;
  }
}
