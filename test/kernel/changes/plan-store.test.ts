import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryPlanStore, type PlanBinding } from '../../../kernel/changes/plan-store.ts';
import { plansView } from '../../../kernel/changes/views.ts';
import { KernelError } from '../../../kernel/errors/index.ts';

const TTL = 600_000;
const binding: PlanBinding = { client: 'alice', tool: 'cucm_axl_call', argsDigest: 'a1', beforeDigest: 'b1' };
const store = () => new MemoryPlanStore({ ttlMs: TTL, perClient: 10 });

const codeOf = (r: PromiseSettledResult<unknown>): string =>
  r.status === 'fulfilled' ? 'OK' : (r.reason as KernelError).code;

describe('preview plans', () => {
  it('50 concurrent uses of one plan: exactly one goes ahead, the others are told PLAN_USED', async () => {
    const plans = plansView(store(), { client: 'alice', tool: 'cucm_axl_call' });
    const args = { host: 'pub', operation: 'removePhone', data: { name: 'SEP1' } };
    const before = { phone: { name: 'SEP1', description: 'x' } };
    const { plan_id } = await plans.issue({ args: { ...args, dry_run: true }, before });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, () => plans.consume(plan_id, { args: { ...args, plan_id }, before })),
    );
    const codes = outcomes.map(codeOf);
    assert.equal(codes.filter((c) => c === 'OK').length, 1, codes.join(','));
    assert.deepEqual(new Set(codes.filter((c) => c !== 'OK')), new Set(['PLAN_USED']));
  });

  it('expires after its lifetime (PLAN_EXPIRED), then is forgotten (PLAN_NOT_FOUND)', async () => {
    const s = store();
    const t0 = Date.parse('2026-11-26T10:00:00Z');
    const plan = await s.issue(binding, t0);
    assert.equal(plan.expiresAt, t0 + TTL);
    assert.match(plan.id, /^plan_[0-9a-f]{32}$/);
    await assert.rejects(s.consume(plan.id, binding, t0 + TTL), { code: 'PLAN_EXPIRED' });
    await assert.rejects(s.consume(plan.id, binding, t0 + TTL + 1), { code: 'PLAN_EXPIRED' });
    await assert.rejects(s.consume(plan.id, binding, t0 + 2 * TTL), { code: 'PLAN_NOT_FOUND' });
  });

  it("another client's plan is answered exactly as an unknown one, and stays usable by its owner", async () => {
    const s = store();
    const plan = await s.issue(binding);
    const refusal = (p: Promise<unknown>): Promise<KernelError> =>
      p.then(
        () => assert.fail('accepted'),
        (err: unknown) => err as KernelError,
      );
    const foreign = await refusal(s.consume(plan.id, { ...binding, client: 'mallory' }));
    const unknown = await refusal(s.consume('plan_0000', { ...binding, client: 'mallory' }));
    assert.equal(foreign.code, 'PLAN_NOT_FOUND');
    assert.deepEqual([foreign.code, foreign.message], [unknown.code, unknown.message]);
    assert.equal((await s.consume(plan.id, binding)).id, plan.id);
  });

  it('other arguments or another tool: PLAN_MISMATCH, nothing used; a changed object: CHANGED_SINCE_PREVIEW, used up', async () => {
    const s = store();
    const plan = await s.issue(binding);
    await assert.rejects(s.consume(plan.id, { ...binding, argsDigest: 'other' }), { code: 'PLAN_MISMATCH' });
    await assert.rejects(s.consume(plan.id, { ...binding, tool: 'imp_axl_call' }), { code: 'PLAN_MISMATCH' });
    await assert.rejects(s.consume(plan.id, { ...binding, beforeDigest: 'changed' }), {
      code: 'CHANGED_SINCE_PREVIEW',
    });
    await assert.rejects(s.consume(plan.id, binding), { code: 'PLAN_USED' });
  });

  it('binds arguments by content: key order, dry_run and plan_id do not count, a value does', async () => {
    const plans = plansView(store(), { client: 'alice', tool: 'cuc_cupi_call' });
    const before = { User: { Alias: 'jdoe' } };
    const a = await plans.issue({
      args: { dry_run: true, method: 'PUT', path: '/vmrest/users/1', body: { x: 1, y: [1, 2] } },
      before,
    });
    await plans.consume(a.plan_id, {
      args: { body: { y: [1, 2], x: 1 }, path: '/vmrest/users/1', method: 'PUT', plan_id: a.plan_id },
      before: { User: { Alias: 'jdoe' } },
    });
    const b = await plans.issue({ args: { method: 'PUT', path: '/vmrest/users/1', body: { x: 1 } }, before });
    await assert.rejects(
      plans.consume(b.plan_id, { args: { method: 'PUT', path: '/vmrest/users/1', body: { x: 2 } }, before }),
      { code: 'PLAN_MISMATCH' },
    );
    await assert.rejects(
      plans.consume(b.plan_id, {
        args: { method: 'PUT', path: '/vmrest/users/1', body: { x: 1 } },
        before: { User: { Alias: 'jdoe2' } },
      }),
      { code: 'CHANGED_SINCE_PREVIEW' },
    );
    const other = plansView(store(), { client: 'alice', tool: 'cuc_cupi_call' });
    await assert.rejects(other.consume(b.plan_id, { args: {}, before }), { code: 'PLAN_NOT_FOUND' });
  });

  it('keeps at most perClient plans per client: the oldest goes first', async () => {
    const s = new MemoryPlanStore({ ttlMs: TTL, perClient: 3 });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await s.issue(binding)).id);
    await assert.rejects(s.consume(ids[0] as string, binding), { code: 'PLAN_NOT_FOUND' });
    await assert.rejects(s.consume(ids[1] as string, binding), { code: 'PLAN_NOT_FOUND' });
    assert.equal((await s.consume(ids[4] as string, binding)).id, ids[4]);
    // Another client's plans are not evicted by alice's.
    const bob = await s.issue({ ...binding, client: 'bob' });
    for (let i = 0; i < 5; i++) await s.issue(binding);
    assert.equal((await s.consume(bob.id, { ...binding, client: 'bob' })).id, bob.id);
  });

  it('a value nested past the digest bound is a BAD_REQUEST, not a stack overflow', async () => {
    const plans = plansView(store(), { client: 'alice', tool: 'cucm_axl_call' });
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    await assert.rejects(
      plans.issue({ args: { deep }, before: null }),
      (err: unknown) => err instanceof KernelError && err.code === 'BAD_REQUEST',
    );
  });
});
