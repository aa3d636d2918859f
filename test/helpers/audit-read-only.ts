// Issue 23 point 6: a security audit run with writes forbidden at the vault level. The admin stores the
// lab node's credentials `read_only: true` through the product tools, runs the product's whole checklist
// through its real MCP client, and the run must match a run with the same credentials writable (same
// findings, same unjudged checks) with no request refused; then writes with the same credentials (one per
// family the product has) are refused READ_ONLY_CREDENTIAL and the lab's logs show nothing of them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Checklist, EvidenceResult } from '../../plugins/_shared/audit/checklist.ts';
import { runChecklist, type ChecklistRun } from '../../plugins/_shared/audit/run-checklist.ts';
import { writeBusyAdminProfile } from './audit-combinations.ts';
import { mcpCaller } from './audit-run.ts';
import { labCredential, prepareNode, startProductStack, type ProductStack } from './product-stack.ts';
import { tempStateDir } from './state-dir.ts';

/** A write the read-only credential must not carry, and how to tell the lab never received it. */
export interface WriteAttempt {
  name: string;
  tool: string;
  /** The arguments; `host` is added. May read the node first (with the same read-only credential). */
  args: (s: ProductStack, host: string) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** True for what the lab logged if the write had reached it. */
  reached: (s: ProductStack) => boolean;
}

type Product = 'cucm' | 'imp' | 'cuc';

async function storeCredentials(s: ProductStack, product: Product, readOnly: boolean): Promise<void> {
  const node = s.node(product);
  const extra = readOnly ? { read_only: true } : {};
  await s.ok('admin', `${product}_update_credentials`, {
    ...labCredential(s.lab, node, product === 'cuc' ? 'cupi' : 'axl'),
    ...extra,
  });
  await s.ok('admin', `${product}_os_update_credentials`, { ...labCredential(s.lab, node, 'os'), ...extra });
}

/** The whole checklist through the admin's MCP client; every evidence result kept. */
async function audit(
  s: ProductStack,
  checklist: Checklist,
): Promise<{ run: ChecklistRun; results: { tool: string; result: EvidenceResult }[] }> {
  const results: { tool: string; result: EvidenceResult }[] = [];
  const call = mcpCaller(s.mcp.admin);
  const run = await runChecklist(checklist, s.node(checklist.product).name, async (tool, args) => {
    const result = await call(tool, args);
    results.push({ tool, result });
    return result;
  });
  return { run, results };
}

/**
 * A write through the tool as an agent would make it: direct, or when the gate asks for a confirmation
 * (a destructive change), previewed with dry_run and sent again with the preview's plan_id.
 */
async function attemptWrite(s: ProductStack, tool: string, args: Record<string, unknown>) {
  let r = await s.mcp.admin.call(tool, args);
  let sc = (r.structuredContent ?? {}) as Record<string, unknown>;
  if (r.isError && sc.error === 'CONFIRMATION_REQUIRED') {
    const preview = await s.mcp.admin.call(tool, { ...args, dry_run: true });
    const p = (preview.structuredContent ?? {}) as Record<string, unknown>;
    assert.equal(preview.isError, undefined, `${tool} dry_run: ${JSON.stringify(p)}`);
    assert.equal(typeof p.plan_id, 'string', JSON.stringify(p));
    r = await s.mcp.admin.call(tool, { ...args, plan_id: p.plan_id });
    sc = (r.structuredContent ?? {}) as Record<string, unknown>;
  }
  return { isError: r.isError === true, error: String(sc.error), message: String(sc.message) };
}

export function describeReadOnlyAudit(checklist: Checklist, writes: readonly WriteAttempt[]): void {
  const product = checklist.product as Product;
  describe(`${checklist.prompt} with read-only credentials (writes forbidden in the vault)`, () => {
    let s: ProductStack;
    let state: { dir: string; cleanup: () => void };
    let writable: ChecklistRun;
    before(async () => {
      state = tempStateDir('ucmcp-read-only-audit-');
      // Two whole audits and the write attempts on one session: the shipped windows' limits, times 100.
      writeBusyAdminProfile(state.dir);
      s = await startProductStack({ lab: { profile: 'weak' }, stateDir: state.dir, seedVaultFor: [] });
      await prepareNode(s, product);
      if (product === 'cucm') await s.ok('admin', 'cucm_download_ris_toolkit', { host: s.node('cucm').name });
      writable = (await audit(s, checklist)).run;
    });
    after(async () => {
      await s?.stop();
      state?.cleanup();
    });

    it('the credentials are stored read-only: the listing and the audit trail say so', async () => {
      const mark = s.mark();
      await storeCredentials(s, product, true);
      const listed = await s.ok('admin', `${product}_list_credentials`, {});
      const mine = (listed.credentials as { host: string; kind: string; read_only: boolean }[]).filter(
        (c) => c.host === s.node(product).name,
      );
      assert.deepEqual(
        mine.map((c) => [c.kind, c.read_only]),
        [
          [product === 'cuc' ? 'cupi' : 'axl', true],
          ['os', true],
        ].sort(),
      );
      const vault = s.auditSince(mark).filter((r) => r.event === 'CREDENTIAL' && r.operation === 'update');
      assert.deepEqual(
        vault.map((r) => [r.status, r.read_only]),
        [
          ['OK', true],
          ['OK', true],
        ],
      );
    });

    it('the whole audit runs: every evidence call answers, and the checks are judged as with writable credentials', async () => {
      const mark = s.mark();
      const writesBefore = s.lab.state.log.writes.length;
      const { run, results } = await audit(s, checklist);
      const refused = results.filter((r) => !r.result.ok && r.result.error === 'READ_ONLY_CREDENTIAL');
      assert.deepEqual(refused, [], 'no evidence call of the audit is refused as a write');
      assert.ok(run.calls > 10 && run.findings.length > 0, 'the weak lab gives findings');
      assert.deepEqual(
        run.findings.map((f) => [f.check, f.detail]),
        writable.findings.map((f) => [f.check, f.detail]),
      );
      assert.deepEqual(run.unjudged, writable.unjudged);
      const denied = s
        .auditSince(mark)
        .filter((r) => r.event === 'ACTIONS' && r.denied_requests !== undefined);
      assert.deepEqual(denied, []);
      assert.equal(s.lab.state.log.writes.length, writesBefore, 'the audit changed nothing on the node');
    });

    for (const w of writes)
      it(`${w.name} with the same credential is refused READ_ONLY_CREDENTIAL and never reaches the node`, async () => {
        const host = s.node(product).name;
        const args = { host, ...(await w.args(s, host)) };
        const mark = s.mark();
        const requests = s.lab.state.log.requests.length;
        const commands = s.lab.state.log.commands.length;
        const writesBefore = s.lab.state.log.writes.length;
        const r = await attemptWrite(s, w.tool, args);
        assert.equal(r.isError, true);
        assert.equal(r.error, 'READ_ONLY_CREDENTIAL', r.message);
        assert.match(r.message, /read-only/);
        assert.equal(w.reached(s), false, 'the lab received the write');
        assert.equal(s.lab.state.log.writes.length, writesBefore);
        // Reads (a preview's before-image) may have gone; nothing the lab logged is the write itself.
        const sent = [
          ...s.lab.state.log.requests.slice(requests).map((q) => `${q.method} ${q.operation ?? q.path}`),
          ...s.lab.state.log.commands.slice(commands).map((c) => c.command),
        ];
        const outcome = s
          .auditSince(mark)
          .filter((a) => a.event === 'ACTIONS' && a.tool_name === w.tool && a.status !== 'STARTED')
          .at(-1);
        assert.equal(outcome?.status, 'DENIED', JSON.stringify(outcome));
        assert.equal(outcome?.error, 'READ_ONLY_CREDENTIAL');
        const denied = outcome?.denied_requests as { reason?: string }[] | undefined;
        assert.equal(denied?.[0]?.reason, 'read_only_credential', JSON.stringify({ outcome, sent }));
      });

    it('an update without read_only makes the credentials writable again, and the listing says so', async () => {
      await storeCredentials(s, product, false);
      const listed = await s.ok('admin', `${product}_list_credentials`, {});
      const flags = (listed.credentials as { host: string; read_only: boolean }[])
        .filter((c) => c.host === s.node(product).name)
        .map((c) => c.read_only);
      assert.deepEqual(flags, [false, false]);
    });
  });
}
