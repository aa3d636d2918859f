// *_change_history through a real MCP client. The write tools record their changes through ctx.changes
// from the next round on; until then the set-up writes the records through the running kernel's own
// journal service (the one ctx.changes wraps), as a tool call would, and the tools read them back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ChangeRecord } from '../../../kernel/sdk/changes.ts';
import { sampleChange } from '../../helpers/change-entry.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';

describe('*_change_history (e2e, real MCP client)', () => {
  let k: TestKernel;
  let op: ConnectedClient;
  const written: Record<string, ChangeRecord> = {};

  before(async () => {
    k = await startTestKernel({
      license: { products: ['cucm', 'imp', 'cuc'], expiresInDays: 30 },
      env: {
        AUTH_CLIENTS: 'op:operator:cucm+imp+cuc,ad:admin:cucm+imp+cuc,aud:auditor:cucm+imp+cuc',
        AUTH_BCRYPT_COST: '4',
      },
    });
    const journal = k.kernel.mcp.changes;
    const call = (client: string, product: 'cucm' | 'cuc', tool: string) => ({
      client,
      callId: `call-${client}-${product}`,
      tool,
      product,
    });
    written.phone = await journal.append(
      sampleChange({ request: { name: 'SEP001122334455', password: 'Never-Show-Me-42' } }),
      call('op', 'cucm', 'cucm_axl_call'),
    );
    written.line = await journal.append(
      sampleChange({
        host: 'cucm-sub.lab',
        operation: 'addLine',
        object: { type: 'line', name: '4001', uuid: '{L-4001}' },
        before: null,
      }),
      call('op', 'cucm', 'cucm_axl_call'),
    );
    written.user = await journal.append(
      sampleChange({
        host: 'cuc-pub.lab',
        kind: 'cupi',
        operation: 'PUT /vmrest/users/abc',
        object: { type: 'user', name: 'jdoe', path: '/vmrest/users/abc' },
      }),
      call('op', 'cuc', 'cuc_cupi_call'),
    );
    written.foreign = await journal.append(sampleChange(), call('ad', 'cucm', 'cucm_axl_call'));
    op = await connectMcp(k, startupToken(k.stateDir, 'op'));
  });
  after(async () => {
    await op?.close();
    await k?.stop();
  });

  it('lists the caller’s own changes of the product, newest first, secrets masked, schema-checked by the client', async () => {
    // listTools first: the SDK client then checks structuredContent against each tool's outputSchema.
    const names = (await op.client.listTools()).tools.map((t) => t.name);
    for (const p of ['cucm', 'imp', 'cuc']) assert.ok(names.includes(`${p}_change_history`), p);
    const r = await op.call('cucm_change_history');
    assert.equal(r.isError, undefined, JSON.stringify(r.content));
    const s = r.structuredContent as { product: string; changes: ChangeRecord[]; next_cursor: null };
    assert.equal(s.product, 'cucm');
    assert.deepEqual(
      s.changes.map((c) => c.id),
      [written.line?.id, written.phone?.id],
      "only op's cucm changes: not the admin's, not the cuc one",
    );
    assert.equal(s.changes[1]?.call_id, 'call-op-cucm');
    assert.ok(!JSON.stringify(r).includes('Never-Show-Me-42'), 'the password never reaches the caller');
    assert.ok(!readFileSync(join(k.stateDir, 'changes', 'op.jsonl'), 'utf8').includes('Never-Show-Me-42'));
    const cuc = (await op.call('cuc_change_history')).structuredContent as { changes: ChangeRecord[] };
    assert.deepEqual(
      cuc.changes.map((c) => c.id),
      [written.user?.id],
    );
    const imp = (await op.call('imp_change_history')).structuredContent as { changes: ChangeRecord[] };
    assert.deepEqual(imp.changes, []);
  });

  it('filters by host, object and time, and pages with the cursor', async () => {
    const byHost = await op.call('cucm_change_history', { host: 'CUCM-SUB.lab' });
    assert.deepEqual(
      (byHost.structuredContent as { changes: ChangeRecord[] }).changes.map((c) => c.id),
      [written.line?.id],
    );
    const byObject = await op.call('cucm_change_history', { object: 'sep0011' });
    assert.deepEqual(
      (byObject.structuredContent as { changes: ChangeRecord[] }).changes.map((c) => c.id),
      [written.phone?.id],
    );
    const future = await op.call('cucm_change_history', { since: '2999-01-01T00:00:00Z' });
    assert.deepEqual((future.structuredContent as { changes: unknown[] }).changes, []);
    const first = (await op.call('cucm_change_history', { limit: 1 })).structuredContent as {
      changes: ChangeRecord[];
      next_cursor: string;
    };
    assert.equal(first.changes[0]?.id, written.line?.id);
    const second = (await op.call('cucm_change_history', { limit: 1, cursor: first.next_cursor }))
      .structuredContent as { changes: ChangeRecord[]; next_cursor: string | null };
    assert.equal(second.changes[0]?.id, written.phone?.id);
    assert.equal(second.next_cursor, null);
  });

  it('answers bad input with a coded error, and refuses a profile that cannot write', async () => {
    const bad = await op.call('cucm_change_history', { cursor: 'not-a-cursor' });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0]?.text ?? '', /BAD_REQUEST/);
    const badTime = await op.call('cucm_change_history', { since: 'last tuesday' });
    assert.equal(badTime.isError, true);
    const aud = await connectMcp(k, startupToken(k.stateDir, 'aud'));
    try {
      const names = (await aud.client.listTools()).tools.map((t) => t.name);
      assert.ok(!names.includes('cucm_change_history'), 'the auditor is not shown it');
      const refused = await aud.call('cucm_change_history');
      assert.equal(refused.isError, true);
      assert.match(refused.content[0]?.text ?? '', /ProfilePermissionError/);
    } finally {
      await aud.close();
    }
  });
});
