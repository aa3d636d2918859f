// Preview plans in the shared store (kernel/changes/shared-plan-store.ts) against a real redis-server: the
// same answers as the memory store, a plan issued through one instance used through another, and of
// many concurrent uses from several instances (separate connections) exactly one goes ahead.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { PlanBinding } from '../../../kernel/changes/plan-store.ts';
import { SharedPlanStore } from '../../../kernel/changes/shared-plan-store.ts';
import { plansView } from '../../../kernel/changes/views.ts';
import type { KernelError } from '../../../kernel/errors/index.ts';
import { RedisConnection } from '../../../kernel/store/backend/redis-connection.ts';
import { RedisRecordStore } from '../../../kernel/store/backend/redis-records.ts';
import { redisAvailable, startRedis, type RedisHandle } from '../../helpers/redis-server.ts';

const skip = redisAvailable();
if (skip) console.log(`# skipping the shared plan store tests: ${skip}`);

const TTL = 600_000;
const binding: PlanBinding = { client: 'alice', tool: 'cucm_axl_call', argsDigest: 'a1', beforeDigest: 'b1' };
const codeOf = (r: PromiseSettledResult<unknown>): string =>
  r.status === 'fulfilled' ? 'OK' : (r.reason as KernelError).code;

describe('preview plans in the shared store', { skip }, () => {
  let redis: RedisHandle;
  /** One connection per "instance". */
  const conns: RedisConnection[] = [];
  const instance = (ttlMs = TTL) =>
    new SharedPlanStore(new RedisRecordStore(conns[conns.length - 1] as RedisConnection), {
      ttlMs,
      perClient: 10,
    });
  const open = async () => {
    conns.push(
      await RedisConnection.open({
        url: redis.url,
        passwordEnc: '',
        caFile: '',
        timeoutMs: 2000,
        privateKey: generateKeyPairSync('ed25519').privateKey,
      }),
    );
    return instance;
  };
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await Promise.all(conns.map((c) => c.close()));
    await redis?.cleanup();
  });

  it('a plan previewed through one instance is used through another; 40 concurrent uses on 4 instances: one goes ahead, the rest PLAN_USED', async () => {
    const stores = [];
    for (let i = 0; i < 4; i++) stores.push((await open())());
    const [a, b] = stores as [SharedPlanStore, SharedPlanStore];
    const one = await a.issue(binding);
    assert.match(one.id, /^plan_[0-9a-f]{32}$/);
    assert.equal((await b.consume(one.id, binding)).id, one.id);
    await assert.rejects(a.consume(one.id, binding), { code: 'PLAN_USED' });

    const views = stores.map((s) => plansView(s, { client: 'alice', tool: 'cucm_axl_call' }));
    const args = { host: 'pub', operation: 'removePhone', data: { name: 'SEP1' } };
    const beforeImage = { phone: { name: 'SEP1' } };
    const { plan_id } = await (views[0] as (typeof views)[0]).issue({
      args: { ...args, dry_run: true },
      before: beforeImage,
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        (views[i % 4] as (typeof views)[0]).consume(plan_id, {
          args: { ...args, plan_id },
          before: beforeImage,
        }),
      ),
    );
    const codes = outcomes.map(codeOf);
    assert.equal(codes.filter((c) => c === 'OK').length, 1, codes.join(','));
    assert.deepEqual(new Set(codes.filter((c) => c !== 'OK')), new Set(['PLAN_USED']));
  });

  it("answers as the memory store: another client's plan is unknown, a mismatch leaves it usable, a changed object uses it up", async () => {
    const s = (await open())();
    const plan = await s.issue(binding);
    const foreign = await s
      .consume(plan.id, { ...binding, client: 'mallory' })
      .catch((e: unknown) => e as KernelError);
    const unknown = await s.consume('plan_0000', binding).catch((e: unknown) => e as KernelError);
    assert.deepEqual(
      [(foreign as KernelError).code, (foreign as KernelError).message],
      [(unknown as KernelError).code, (unknown as KernelError).message],
    );
    assert.equal((foreign as KernelError).code, 'PLAN_NOT_FOUND');
    await assert.rejects(s.consume(plan.id, { ...binding, argsDigest: 'other' }), { code: 'PLAN_MISMATCH' });
    await assert.rejects(s.consume(plan.id, { ...binding, tool: 'imp_axl_call' }), { code: 'PLAN_MISMATCH' });
    await assert.rejects(s.consume(plan.id, { ...binding, beforeDigest: 'changed' }), {
      code: 'CHANGED_SINCE_PREVIEW',
    });
    await assert.rejects(s.consume(plan.id, binding), { code: 'PLAN_USED' });
  });

  it('expires after its lifetime (PLAN_EXPIRED), and the store forgets it one lifetime later (PLAN_NOT_FOUND)', async () => {
    const s = (await open())(400);
    const plan = await s.issue(binding);
    await sleep(450);
    await assert.rejects(s.consume(plan.id, binding), { code: 'PLAN_EXPIRED' });
    await sleep(450);
    await assert.rejects(s.consume(plan.id, binding), { code: 'PLAN_NOT_FOUND' });
  });

  it('fails closed: with the store stopped, issuing and using a plan throw STATE_STORE_UNAVAILABLE', async () => {
    const s = (await open())();
    const plan = await s.issue(binding);
    await redis.stop();
    try {
      await assert.rejects(s.issue(binding), { code: 'STATE_STORE_UNAVAILABLE' });
      await assert.rejects(s.consume(plan.id, binding), { code: 'STATE_STORE_UNAVAILABLE' });
    } finally {
      await redis.start();
    }
  });
});
