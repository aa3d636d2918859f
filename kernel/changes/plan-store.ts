import { randomBytes } from 'node:crypto';
import {
  ChangedSincePreviewError,
  PlanExpiredError,
  PlanMismatchError,
  PlanNotFoundError,
  PlanUsedError,
} from '../errors/index.ts';

/** What a plan binds: the change is confirmed only for this client, tool, arguments and before-image. */
export interface PlanBinding {
  client: string;
  tool: string;
  /** contentDigest of the arguments (without dry_run and plan_id). */
  argsDigest: string;
  /** contentDigest of the before-image the preview showed. */
  beforeDigest: string;
}

export interface Plan extends PlanBinding {
  id: string;
  issuedAt: number;
  expiresAt: number;
}

/**
 * Single-use preview plans. The interface is what a shared (Redis) implementation must provide:
 * `issue` is one SET with a TTL, `consume` one script (Lua) that reads, checks and marks the plan in a
 * single step, so that of concurrent consumers, on one instance or many, exactly one succeeds. Every
 * value is JSON-serialisable and every time is epoch milliseconds.
 */
export interface PlanStore {
  issue(binding: PlanBinding, now?: number): Promise<Plan>;
  /**
   * Marks the plan used and returns it when `expect` matches it; else throws, in this order:
   * PLAN_NOT_FOUND (unknown, or another client's: the same answer), PLAN_USED, PLAN_EXPIRED,
   * PLAN_MISMATCH (other tool or arguments; the plan stays usable), CHANGED_SINCE_PREVIEW (the plan is
   * used up: its preview no longer describes the object).
   */
  consume(id: string, expect: PlanBinding, now?: number): Promise<Plan>;
}

export interface PlanStoreOptions {
  ttlMs: number;
  /** Most plans kept per client (used and expired ones included until they are forgotten). */
  perClient: number;
}

interface Entry {
  plan: Plan;
  used: boolean;
}

/**
 * The local implementation, in this process's memory: a restart forgets every plan (the change is
 * previewed again). A used or expired plan is remembered for one more lifetime, so a second use is told
 * PLAN_USED or PLAN_EXPIRED rather than PLAN_NOT_FOUND; then it is forgotten. A client past `perClient`
 * plans loses its oldest, so memory stays bounded whatever a client asks for.
 */
/** Refuses a plan past its expiry, or previewed with another tool or other arguments (it stays unused). */
export function assertPlanFits(plan: Plan, expect: PlanBinding, now: number): void {
  if (now >= plan.expiresAt)
    throw new PlanExpiredError(
      `this plan_id expired at ${new Date(plan.expiresAt).toISOString()}: preview the change again`,
    );
  if (plan.tool !== expect.tool || plan.argsDigest !== expect.argsDigest)
    throw new PlanMismatchError(
      plan.tool !== expect.tool
        ? `this plan_id was previewed with ${plan.tool}, not ${expect.tool}`
        : 'the arguments differ from those previewed with this plan_id: nothing was sent',
    );
}

/** Refuses (once the plan is used up) when the object changed on the node since the preview. */
export function assertUnchangedSincePreview(plan: Plan, expect: PlanBinding): void {
  if (plan.beforeDigest !== expect.beforeDigest)
    throw new ChangedSincePreviewError(
      'the object changed on the node since the preview: nothing was sent; preview the change again',
    );
}

export class MemoryPlanStore implements PlanStore {
  private readonly entries = new Map<string, Entry>();
  /** Each client's plan ids, oldest first. */
  private readonly byClient = new Map<string, string[]>();

  constructor(private readonly o: PlanStoreOptions) {}

  issue(binding: PlanBinding, now = Date.now()): Promise<Plan> {
    this.forgetOld(binding.client, now);
    const ids = this.byClient.get(binding.client) ?? [];
    while (ids.length >= this.o.perClient) this.entries.delete(ids.shift() as string);
    const plan: Plan = {
      ...binding,
      id: `plan_${randomBytes(16).toString('hex')}`,
      issuedAt: now,
      expiresAt: now + this.o.ttlMs,
    };
    this.entries.set(plan.id, { plan, used: false });
    ids.push(plan.id);
    this.byClient.set(binding.client, ids);
    return Promise.resolve({ ...plan });
  }

  /** Synchronous from lookup to mark, so two consumers in this process can never both pass. */
  consume(id: string, expect: PlanBinding, now = Date.now()): Promise<Plan> {
    try {
      this.forgetOld(expect.client, now);
      const entry = this.entries.get(id);
      if (!entry || entry.plan.client !== expect.client)
        throw new PlanNotFoundError('no such plan_id for this client: preview the change first');
      const { plan } = entry;
      if (entry.used) throw new PlanUsedError('this plan_id was already used: preview the change again');
      assertPlanFits(plan, expect, now);
      entry.used = true;
      assertUnchangedSincePreview(plan, expect);
      return Promise.resolve({ ...plan });
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  /** Drops the client's plans past one more lifetime after their expiry. */
  private forgetOld(client: string, now: number): void {
    const ids = this.byClient.get(client);
    if (!ids) return;
    const kept = ids.filter((id) => {
      const e = this.entries.get(id);
      if (e && now < e.plan.expiresAt + this.o.ttlMs) return true;
      this.entries.delete(id);
      return false;
    });
    if (kept.length === 0) this.byClient.delete(client);
    else this.byClient.set(client, kept);
  }
}
