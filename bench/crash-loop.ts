// Crash safety, the long run: the server is SIGKILLed at random moments during credential writes,
// token revocation, client sync (random kills and kills before chosen file-system steps, some half
// done) and backups, many times in a loop. After every restart each state file must parse, no
// acknowledged write may be lost and the audit log must hold only whole lines
// (test/reliability/crash/scenario-*.ts say what each checks).
//   node --import tsx bench/crash-loop.ts                   (CRASH_ITERATIONS=25 per scenario)
//   CRASH_ITERATIONS=100 CRASH_SEED=1234 node --import tsx bench/crash-loop.ts
//   CRASH_SCENARIOS=credentials,backup node --import tsx bench/crash-loop.ts
// Prints one line per kill/restart cycle, then a summary per scenario; exits 1 on any violation. The
// seed is printed: CRASH_SEED replays the same kill schedule (timings still vary with the machine).
import { SCENARIOS, runScenario, type ScenarioName } from '../test/reliability/crash/scenarios.ts';
import { seedFromEnv, summary } from '../test/reliability/crash/harness.ts';

const iterations = Number(process.env.CRASH_ITERATIONS ?? 25);
const seed = seedFromEnv();
const chosen = (process.env.CRASH_SCENARIOS?.split(',') ?? Object.keys(SCENARIOS)) as ScenarioName[];
for (const name of chosen) {
  if (!(name in SCENARIOS)) {
    console.error(`unknown scenario ${name}; known: ${Object.keys(SCENARIOS).join(', ')}`);
    process.exit(2);
  }
}

console.log(`crash loop: ${chosen.length} scenarios x ${iterations} kill/restart cycles, seed ${seed}`);
let failed = 0;
for (const name of chosen) {
  const started = performance.now();
  const r = await runScenario(name, {
    iterations,
    seed,
    log: (line) => console.log(`  [${name}] ${line}`),
  });
  console.log(`${summary(r)} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  for (const v of r.violations) console.log(`  VIOLATED: ${v}`);
  if (r.violations.length > 0) failed++;
}
console.log(failed === 0 ? 'every scenario held' : `${failed} scenario(s) violated`);
process.exit(failed === 0 ? 0 : 1);
