import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bunyan from 'bunyan';
import { Metrics } from '../../../kernel/metrics/metrics.ts';
import { MAX_TIMER_MS, WatchdogRunner } from '../../../kernel/watchdogs/runner.ts';

const quietLog = bunyan.createLogger({ name: 'test', streams: [] });

describe('watchdog runner', () => {
  it('runs on start when asked, re-arms after each run, records failures, and stop() aborts and waits', async () => {
    const metrics = new Metrics();
    const runner = new WatchdogRunner(quietLog, metrics);
    let runs = 0;
    let aborted = false;
    runner.register({ name: 'backup', intervalMs: 30, runOnStart: true, run: async () => void runs++ });
    runner.register({
      name: 'integrity',
      intervalMs: 60_000,
      runOnStart: true,
      run: () => Promise.reject(new Error('manifest.sig missing')),
    });
    runner.register({
      name: 'license',
      intervalMs: 60_000,
      runOnStart: true,
      run: (signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        }),
    });
    runner.start();
    await new Promise((r) => setTimeout(r, 120));
    assert.ok(runs >= 2, `backup ran on start and again after its interval (${runs})`);
    const states = Object.fromEntries(runner.states().map((s) => [s.name, s]));
    assert.equal(states.integrity?.lastOk, false);
    assert.equal(states.integrity?.lastError, 'manifest.sig missing');
    assert.equal(states.license?.running, true);
    const exposition = await metrics.exposition();
    assert.match(exposition, /ucmcp_watchdog_status\{watchdog="integrity"\} 0/);
    assert.match(exposition, /ucmcp_watchdog_status\{watchdog="backup"\} 1/);

    await runner.stop();
    assert.equal(aborted, true, 'the run in progress saw the abort');
    const after = runs;
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(runs, after, 'nothing runs after stop');
  });

  it('runNow runs one watchdog on demand and reports its state', async () => {
    const runner = new WatchdogRunner(quietLog, new Metrics());
    runner.register({
      name: 'integrity',
      intervalMs: 86_400_000,
      runOnStart: false,
      run: async () => undefined,
    });
    const state = await runner.runNow('integrity');
    assert.equal(state.lastOk, true);
    assert.ok(state.lastRun);
    await runner.stop();
  });

  it('an interval longer than setTimeout allows (24.8 days) waits it out instead of firing at once', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const runner = new WatchdogRunner(quietLog, new Metrics());
    let runs = 0;
    // Over 74 days: three full timer lengths and 5 ms.
    const interval = 3 * MAX_TIMER_MS + 5;
    runner.register({
      name: 'integrity',
      intervalMs: interval,
      runOnStart: false,
      run: async () => void runs++,
    });
    runner.start();
    for (let i = 0; i < 3; i++) t.mock.timers.tick(MAX_TIMER_MS);
    t.mock.timers.tick(4);
    assert.equal(runs, 0, 'not run a millisecond before the interval is over');
    t.mock.timers.tick(1);
    assert.equal(runs, 1, 'run once the interval is over');
    await runner.stop();
  });
});
