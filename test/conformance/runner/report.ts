import { exclusionFor } from './exclusions.ts';
import type { ScenarioRun } from './suite.ts';

export type Verdict = 'pass' | 'FAIL' | 'n/a' | 'STALE';

export interface Row {
  revision: string;
  scenario: string;
  verdict: Verdict;
  reason: string;
}

/**
 * A scenario passes when none of its checks is a FAILURE (warnings are the suite's SHOULDs and are
 * listed, not failed). An excluded scenario is n/a with its reason, or STALE when it passes anyway.
 */
export function verdicts(runs: ScenarioRun[]): Row[] {
  return runs.map((r) => {
    const failures = r.checks.filter((c) => c.status === 'FAILURE');
    const warnings = r.checks.filter((c) => c.status === 'WARNING');
    const excluded = exclusionFor(r.scenario, r.revision);
    if (excluded) {
      return failures.length === 0
        ? {
            ...key(r),
            verdict: 'STALE',
            reason: `excluded but passes now: correct the exclusion (${excluded.reason})`,
          }
        : { ...key(r), verdict: 'n/a', reason: excluded.reason };
    }
    if (failures.length > 0) {
      const first = failures[0] as (typeof failures)[number];
      const more = failures.length > 1 ? ` (+${failures.length - 1} more failed checks)` : '';
      return {
        ...key(r),
        verdict: 'FAIL',
        reason: `${first.id}: ${oneLine(first.errorMessage ?? 'failed')}${more}`,
      };
    }
    const warned =
      warnings.length > 0 ? `${warnings.length} warning(s): ${warnings.map((w) => w.id).join(', ')}` : '';
    return { ...key(r), verdict: 'pass', reason: warned };
  });
}

const key = (r: ScenarioRun) => ({ revision: r.revision, scenario: r.scenario });

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 220 ? `${flat.slice(0, 217)}...` : flat;
}

/** The results table: revision, scenario, result, reason. */
export function formatTable(rows: Row[]): string {
  const header: Row = {
    revision: 'revision',
    scenario: 'scenario',
    verdict: 'result' as Verdict,
    reason: 'reason',
  };
  const w1 = Math.max(...[header, ...rows].map((r) => r.revision.length));
  const w2 = Math.max(...[header, ...rows].map((r) => r.scenario.length));
  const w3 = Math.max(...[header, ...rows].map((r) => r.verdict.length));
  const line = (r: Row): string =>
    `${r.revision.padEnd(w1)}  ${r.scenario.padEnd(w2)}  ${r.verdict.padEnd(w3)}  ${r.reason}`.trimEnd();
  return [line(header), '-'.repeat(w1 + w2 + w3 + 12), ...rows.map(line)].join('\n');
}

export function summarise(rows: Row[]): {
  passed: number;
  failed: number;
  notApplicable: number;
  stale: number;
} {
  return {
    passed: rows.filter((r) => r.verdict === 'pass').length,
    failed: rows.filter((r) => r.verdict === 'FAIL').length,
    notApplicable: rows.filter((r) => r.verdict === 'n/a').length,
    stale: rows.filter((r) => r.verdict === 'STALE').length,
  };
}
