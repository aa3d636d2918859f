import { randomBytes } from 'node:crypto';
import { PlanNotFoundError, PlanUsedError } from '../errors/index.ts';
import type { RecordStore } from '../store/backend/state-backend.ts';
import {
  assertPlanFits,
  assertUnchangedSincePreview,
  type Plan,
  type PlanBinding,
  type PlanStore,
  type PlanStoreOptions,
} from './plan-store.ts';

const planKey = (id: string) => `plan:${id}`;
const usedKey = (id: string) => `plan-used:${id}`;

/**
 * Preview plans in the shared store (several instances): a plan previewed through one instance is
 * applied through any other, and at most once across all of them. The plan is one record (`plan:<id>`,
 * kept one lifetime past its expiry, so a late use is told PLAN_EXPIRED as with the local store); its
 * use is a second one, `plan-used:<id>`, created only if absent (SET NX): of concurrent consumers on
 * any instances exactly one creates it and goes ahead, every other is told PLAN_USED. Deciding by a
 * create rather than by taking (read-and-delete) the plan keeps the local store's answers exactly: a
 * loser learns PLAN_USED (not PLAN_NOT_FOUND), and a refused use (another client, other arguments,
 * expired) changes nothing, with no window in which the plan is missing. Each client's plans are bounded
 * by its rate limit times the plan lifetime (every preview is a rate-limited tool call), not by
 * `perClient`: counting them would cost a scan of the store at every preview.
 */
export class SharedPlanStore implements PlanStore {
  constructor(
    private readonly records: RecordStore,
    private readonly o: PlanStoreOptions,
  ) {}

  async issue(binding: PlanBinding, now = Date.now()): Promise<Plan> {
    const plan: Plan = {
      ...binding,
      id: `plan_${randomBytes(16).toString('hex')}`,
      issuedAt: now,
      expiresAt: now + this.o.ttlMs,
    };
    await this.records.set(planKey(plan.id), JSON.stringify(plan), 2 * this.o.ttlMs);
    return plan;
  }

  async consume(id: string, expect: PlanBinding, now = Date.now()): Promise<Plan> {
    const raw = /^plan_[0-9a-f]{32}$/.test(id) ? await this.records.get(planKey(id)) : undefined;
    const plan = raw === undefined ? undefined : (JSON.parse(raw) as Plan);
    if (!plan || plan.client !== expect.client)
      throw new PlanNotFoundError('no such plan_id for this client: preview the change first');
    if ((await this.records.get(usedKey(id))) !== undefined) throw used();
    assertPlanFits(plan, expect, now);
    const ttl = Math.max(1000, plan.expiresAt + this.o.ttlMs - now);
    if (!(await this.records.create(usedKey(id), plan.client, ttl))) throw used();
    assertUnchangedSincePreview(plan, expect);
    return plan;
  }
}

function used(): PlanUsedError {
  return new PlanUsedError('this plan_id was already used: preview the change again');
}
