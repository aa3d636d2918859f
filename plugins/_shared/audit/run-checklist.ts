// Runs a checklist the way an agent following the prompt would: every evidence call in order through
// the caller's tool interface (a real MCP client in tests and the benchmark), then every condition.
import {
  bindHost,
  isCannotJudge,
  type Checklist,
  type EvidenceCall,
  type EvidenceResult,
  type Finding,
} from './checklist.ts';

export type ToolCaller = (tool: string, args: Record<string, unknown>) => Promise<EvidenceResult>;

export interface ChecklistRun {
  findings: Finding[];
  /** Checks that could not be judged: evidence failed or could not be read (never silently passed). */
  unjudged: { check: string; reason: string }[];
  calls: number;
  /** Calls per tool, for the rate-limit budget. */
  callsByTool: Record<string, number>;
}

/** Evidence calls made through `call`, each distinct call (tool and bound arguments) once. */
export interface EvidenceGatherer {
  gather(e: EvidenceCall): Promise<EvidenceResult>;
  calls: number;
  callsByTool: Record<string, number>;
}

export function evidenceGatherer(host: string, call: ToolCaller): EvidenceGatherer {
  // The same evidence call (same tool and arguments) is made once and shared by whatever uses it.
  const memo = new Map<string, Promise<EvidenceResult>>();
  const g: EvidenceGatherer = {
    calls: 0,
    callsByTool: {},
    gather(e) {
      const args = bindHost(e.args, host);
      const key = JSON.stringify([e.tool, args]);
      let p = memo.get(key);
      if (!p) {
        g.calls++;
        g.callsByTool[e.tool] = (g.callsByTool[e.tool] ?? 0) + 1;
        p = call(e.tool, args);
        memo.set(key, p);
      }
      return p;
    },
  };
  return g;
}

export async function runChecklist(
  checklist: Checklist,
  host: string,
  call: ToolCaller,
): Promise<ChecklistRun> {
  const run: ChecklistRun = { findings: [], unjudged: [], calls: 0, callsByTool: {} };
  const evidence = evidenceGatherer(host, call);
  for (const check of checklist.checks) {
    const results: Record<string, EvidenceResult> = {};
    for (const e of check.evidence) results[e.id] = await evidence.gather(e);
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
  run.calls = evidence.calls;
  run.callsByTool = evidence.callsByTool;
  return run;
}
