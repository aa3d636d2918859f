// The three security audits run as an agent would (the checklist's tool calls through a real MCP client,
// then the report and its PDF) against the weak and the hardened lab: tool calls, findings, wall time.
// Baseline in the same run: the same number of calls of a trivial tool (infra_health) on the same
// session, i.e. the cost of the MCP round trips alone.
//   node --import tsx bench/security-audits.ts [--product cucm|imp|cuc]
import { parseArgs } from 'node:util';
import { seededWeaknesses } from '../lab/weaknesses/index.ts';
import type { Checklist } from '../plugins/_shared/audit/checklist.ts';
import { CUC_CHECKLIST } from '../plugins/cuc/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../plugins/cucm/audit/checklist.ts';
import { IMP_CHECKLIST } from '../plugins/imp/audit/checklist.ts';
import { auditStack, runAudit } from '../test/helpers/audit-run.ts';

const { values } = parseArgs({ options: { product: { type: 'string' } } });
const CHECKLISTS: Record<string, Checklist> = {
  cucm: CUCM_CHECKLIST,
  imp: IMP_CHECKLIST,
  cuc: CUC_CHECKLIST,
};

async function main(): Promise<void> {
  const products = values.product ? [values.product] : Object.keys(CHECKLISTS);
  let ok = true;
  process.stdout.write(
    'product   lab       checks  calls  by tool                                              findings  seeded  recall  wall ms  baseline ms\n',
  );
  for (const product of products) {
    const checklist = CHECKLISTS[product];
    if (!checklist) throw new Error(`unknown product ${product}`);
    for (const profile of ['weak', 'hardened'] as const) {
      const s = await auditStack(product as 'cucm' | 'imp' | 'cuc', profile);
      try {
        const a = await runAudit(s, checklist, `bench-${product}-${profile}.md`);
        const started = performance.now();
        for (let i = 0; i < a.run.calls; i++) await s.mcp.auditor.call('infra_health', {});
        const baseline = performance.now() - started;
        const seeded = new Set(
          seededWeaknesses(profile, product as 'cucm' | 'imp' | 'cuc').map((w) => w.check),
        );
        const found = new Set(a.run.findings.map((f) => f.check));
        const recall = seeded.size === 0 ? 1 : [...seeded].filter((c) => found.has(c)).length / seeded.size;
        const extra = [...found].filter((c) => !seeded.has(c)).length;
        if (recall < 1 || extra > 0 || a.run.unjudged.length > 0) ok = false;
        const byTool = Object.entries(a.run.callsByTool)
          .map(([t, n]) => `${t.replace(/^[a-z]+_/, '')} ${n}`)
          .join(', ');
        process.stdout.write(
          `${product.padEnd(9)} ${profile.padEnd(9)} ${String(checklist.checks.length).padStart(6)}  ${String(a.run.calls).padStart(5)}  ${byTool.padEnd(52)} ${String(found.size).padStart(8)}  ${String(seeded.size).padStart(6)}  ${(recall * 100).toFixed(0).padStart(5)}%  ${a.wallMs.toFixed(0).padStart(7)}  ${baseline.toFixed(0).padStart(11)}${extra ? `  (${extra} false positives)` : ''}\n`,
        );
      } finally {
        await s.stop();
      }
    }
  }
  process.stdout.write(
    ok ? 'every seeded weakness found, no false positive\n' : 'MISSED OR FALSE FINDINGS\n',
  );
  process.exitCode = ok ? 0 : 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
