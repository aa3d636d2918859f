// The crash scenarios by name, for the bounded test (random-kills.test.ts) and the long run
// (bench/crash-loop.ts).
import type { ScenarioOptions, ScenarioResult } from './harness.ts';
import { backup } from './scenario-backup.ts';
import { clientSync } from './scenario-client-sync.ts';
import { credentialWrites } from './scenario-credentials.ts';
import { revocation } from './scenario-revocation.ts';

export const SCENARIOS = {
  credentials: (o: ScenarioOptions) => credentialWrites(o),
  revocation: (o: ScenarioOptions) => revocation(o),
  'client-sync': (o: ScenarioOptions) => clientSync({ ...o, kill: 'random' }),
  'client-sync-steps': (o: ScenarioOptions) => clientSync({ ...o, kill: 'step' }),
  backup: (o: ScenarioOptions) => backup(o),
} satisfies Record<string, (o: ScenarioOptions) => Promise<ScenarioResult>>;

export type ScenarioName = keyof typeof SCENARIOS;

export function runScenario(name: ScenarioName, o: ScenarioOptions): Promise<ScenarioResult> {
  return SCENARIOS[name](o);
}
