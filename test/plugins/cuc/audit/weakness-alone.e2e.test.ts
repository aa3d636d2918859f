// Each Unity Connection weakness this audit's names or evidence changed for, seeded alone over the weak
// profile's other data, gives exactly its own check's finding; with no weakness seeded, the weak
// profile's remaining data (the fax and outdial restriction tables, PIN values) gives none. The audit
// runs as an agent runs it: the auditor's MCP client against a real lab node.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CUC_WEAKNESSES } from '../../../../lab/weaknesses/cuc.ts';
import type { EvidenceResult } from '../../../../plugins/_shared/audit/checklist.ts';
import { runChecklist } from '../../../../plugins/_shared/audit/run-checklist.ts';
import { CUC_CHECKLIST } from '../../../../plugins/cuc/audit/checklist.ts';
import { auditStack } from '../../../helpers/audit-run.ts';
import type { ProductStack } from '../../../helpers/product-stack.ts';

/** New weaknesses and those whose lab names or evidence command changed (a full sweep is elsewhere). */
const IDS = [
  'cuc-ntp-unsynchronised',
  'cuc-pin-no-min-duration',
  'cuc-web-trivial',
  'cuc-cumi-secure-attachments',
  'cuc-pin-trivial',
  'cuc-pin-no-expiry',
  'cuc-pin-no-history',
  'cuc-web-no-expiry',
  'cuc-default-pins',
  'cuc-pins-never-expire',
  'cuc-mailbox-admin',
  'cuc-transfer-international',
  'cuc-system-transfer-open',
];

async function findings(weaknesses: string[]): Promise<{ checks: string[]; unjudged: string[] }> {
  const s: ProductStack = await auditStack('cuc', { weaknesses, profile: 'weak' });
  try {
    // The evidence through the auditor's MCP client, as the agent gathers it (no report: the
    // combination tests and the end-to-end test cover writing it).
    const call = async (tool: string, args: Record<string, unknown>): Promise<EvidenceResult> => {
      const r = await s.mcp.auditor.call(tool, args);
      const sc = (r.structuredContent ?? {}) as Record<string, unknown>;
      return r.isError
        ? { ok: false, error: String(sc.error), message: String(sc.message) }
        : { ok: true, data: sc };
    };
    const run = await runChecklist(CUC_CHECKLIST, s.node('cuc').name, call);
    return { checks: run.findings.map((f) => f.check).sort(), unjudged: run.unjudged.map((u) => u.check) };
  } finally {
    await s.stop();
  }
}

describe('cuc weaknesses one by one', () => {
  let none: { checks: string[]; unjudged: string[] };
  before(async () => {
    none = await findings([]);
  });

  it('the weak profile with no weakness seeded gives no finding (profile-only data never fires)', () => {
    assert.deepEqual(none, { checks: [], unjudged: [] });
  });

  for (const id of IDS) {
    it(`${id} alone gives exactly its check's finding`, async () => {
      const w = CUC_WEAKNESSES.find((x) => x.id === id);
      assert.ok(w, `${id} is a CUC weakness`);
      assert.deepEqual(await findings([id]), { checks: [w.check], unjudged: [] });
    });
  }
});
