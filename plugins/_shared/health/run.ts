// Runs a health check the way an agent following the prompt would: every evidence call through the
// caller's tool interface (a real MCP client in tests), then every item's thresholds. A failed call
// leaves its item NOT ASSESSED with the error, and a judge that returns nothing is NOT ASSESSED too.
import type { EvidenceResult } from '../audit/checklist.ts';
import { evidenceGatherer, type ToolCaller } from '../audit/run-checklist.ts';
import type { HealthCheck, Judgement, Verdict } from './definition.ts';
import { VERDICTS } from './definition.ts';

export interface HealthRun {
  items: { id: string; judgements: Judgement[] }[];
  calls: number;
  callsByTool: Record<string, number>;
}

export async function runHealthCheck(check: HealthCheck, host: string, call: ToolCaller): Promise<HealthRun> {
  const evidence = evidenceGatherer(host, call);
  const items: HealthRun['items'] = [];
  for (const item of check.items) {
    const results: Record<string, EvidenceResult> = {};
    for (const e of item.evidence) results[e.id] = await evidence.gather(e);
    items.push({ id: item.id, judgements: judgeSafely(results, item.judge) });
  }
  return { items, calls: evidence.calls, callsByTool: evidence.callsByTool };
}

/** The item's judgements, or NOT ASSESSED for the cluster when its evidence failed or judged nothing. */
export function judgeSafely(
  results: Record<string, EvidenceResult>,
  judge: (r: Record<string, EvidenceResult>) => Judgement[],
): Judgement[] {
  const failed = Object.entries(results).find(([, r]) => !r.ok);
  if (failed) {
    const r = failed[1] as Extract<EvidenceResult, { ok: false }>;
    return [
      { subject: 'cluster', verdict: 'NOT ASSESSED', observed: `${failed[0]}: ${r.error}: ${r.message}` },
    ];
  }
  const judged = judge(results);
  return judged.length > 0
    ? judged
    : [{ subject: 'cluster', verdict: 'NOT ASSESSED', observed: 'the answer covered no node' }];
}

/** The worst verdict of a list (CRITICAL, WARNING, NOT ASSESSED, OK in that order). */
export function worst(verdicts: Verdict[]): Verdict {
  return VERDICTS.find((v) => verdicts.includes(v)) ?? 'NOT ASSESSED';
}
