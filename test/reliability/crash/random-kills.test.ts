// The bounded crash loop of `npm test`: every scenario of scenarios.ts, a few SIGKILL/restart cycles
// each (CRASH_TEST_ITERATIONS, default 3). bench/crash-loop.ts runs the same scenarios many more times.
// The seed is printed; CRASH_SEED replays a run's kill schedule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seedFromEnv, summary } from './harness.ts';
import { SCENARIOS, runScenario, type ScenarioName } from './scenarios.ts';

const iterations = Number(process.env.CRASH_TEST_ITERATIONS ?? 3);
const seed = seedFromEnv();

describe(`SIGKILL at random moments, ${iterations} cycles per scenario (seed ${seed})`, () => {
  for (const name of Object.keys(SCENARIOS) as ScenarioName[]) {
    it(`${name}: every state file parses, nothing acknowledged is lost, the audit log has whole lines`, async (t) => {
      const lines: string[] = [];
      const r = await runScenario(name, { iterations, seed, log: (l) => lines.push(l) });
      t.diagnostic(summary(r));
      const report = [summary(r), ...lines, ...r.violations].join('\n');
      assert.deepEqual(r.violations, [], report);
      assert.equal(r.iterations, iterations, report);
      // Credential writes run without pause, so every kill lands among them; the backup scenario ends
      // by waiting for a complete backup. (How many kills land mid-revocation or mid-sync is chance.)
      if (name === 'credentials') assert.ok(r.killsMidOperation > 0 && r.acknowledged > 0, report);
      if (name === 'backup') assert.ok(r.acknowledged > 0, report);
    });
  }
});
