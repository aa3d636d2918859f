// Runs a checklist the way an agent following the prompt would: every evidence call in order through
// the caller's tool interface (a real MCP client in tests and the benchmark), then every condition.
import { bindHost, isCannotJudge, type Checklist, type EvidenceResult, type Finding } from './checklist.ts';

export type ToolCaller = (tool: string, args: Record<string, unknown>) => Promise<EvidenceResult>;

export interface ChecklistRun {
  findings: Finding[];
  /** Checks that could not be judged: evidence failed or could not be read (never silently passed). */
  unjudged: { check: string; reason: string }[];
  calls: number;
  /** Calls per tool, for the rate-limit budget. */
  callsByTool: Record<string, number>;
}

export async function runChecklist(
  checklist: Checklist,
  host: string,
  call: ToolCaller,
): Promise<ChecklistRun> {
  const run: ChecklistRun = { findings: [], unjudged: [], calls: 0, callsByTool: {} };
  // The same evidence call (same tool and arguments) is made once and shared by the checks that use it.
  const memo = new Map<string, Promise<EvidenceResult>>();
  for (const check of checklist.checks) {
    const results: Record<string, EvidenceResult> = {};
    for (const e of check.evidence) {
      const args = bindHost(e.args, host);
      const key = JSON.stringify([e.tool, args]);
      let p = memo.get(key);
      if (!p) {
        run.calls++;
        run.callsByTool[e.tool] = (run.callsByTool[e.tool] ?? 0) + 1;
        p = call(e.tool, args);
        memo.set(key, p);
      }
      results[e.id] = await p;
    }
    const failed = Object.entries(results).find(([, r]) => !r.ok);
    if (failed) {
      const r = failed[1] as Extract<EvidenceResult, { ok: false }>;
      run.unjudged.push({ check: check.id, reason: `${failed[0]}: ${r.error}: ${r.message}` });
      continue;
    }
    const observed = check.evaluate(results);
    if (observed !== undefined && isCannotJudge(observed)) {
      run.unjudged.push({ check: check.id, reason: observed });
      continue;
    }
    if (observed !== undefined)
      run.findings.push({ check: check.id, severity: check.severity, title: check.title, detail: observed });
  }
  return run;
}
