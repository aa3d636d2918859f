import { spawnSync } from 'node:child_process';
import type { TestContext } from 'node:test';

/**
 * Whether a command-line tool runs here. When it does not, the test is skipped with the reason printed
 * (a clean CI machine may lack it), and the caller's other tests still prove the point.
 */
export function requireTool(t: TestContext, command: string, versionArgs: string[], hint: string): boolean {
  const probe = spawnSync(command, versionArgs, { encoding: 'utf8' });
  if (!probe.error && probe.status === 0) return true;
  const reason = `${command} is not installed (${hint})`;
  console.log(`# skipped: ${reason}`);
  t.skip(reason);
  return false;
}
