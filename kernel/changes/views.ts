import type { ChangeJournalView, ChangePlans } from '../sdk/changes.ts';
import type { PluginModule } from '../sdk/types.ts';
import type { ChangeJournal } from './change-journal.ts';
import { contentDigest } from './digest.ts';
import type { PlanStore } from './plan-store.ts';

/** The tool call a view is bound to: its client, tool and call id. */
export interface CallBinding {
  client: string;
  tool: string;
  product: PluginModule;
  callId: string;
}

/** `ctx.changes`: the journal of the calling client, records stamped with the call. */
export function journalView(journal: ChangeJournal, c: CallBinding): ChangeJournalView {
  return {
    record: (entry) =>
      journal.append(entry, { client: c.client, callId: c.callId, tool: c.tool, product: c.product }),
    list: (filter) => journal.list(c.client, filter),
    get: (id) => journal.get(c.client, id),
  };
}

/** `ctx.plans`: plans of the calling client and tool, arguments compared without dry_run and plan_id. */
export function plansView(store: PlanStore, c: Pick<CallBinding, 'client' | 'tool'>): ChangePlans {
  const binding = (p: { args: Record<string, unknown>; before: unknown }) => {
    const { dry_run: _dryRun, plan_id: _planId, ...args } = p.args;
    return {
      client: c.client,
      tool: c.tool,
      argsDigest: contentDigest(args),
      beforeDigest: contentDigest(p.before ?? null),
    };
  };
  return {
    async issue(p) {
      const plan = await store.issue(binding(p));
      return { plan_id: plan.id, expires_at: new Date(plan.expiresAt).toISOString() };
    },
    async consume(planId, p) {
      await store.consume(planId, binding(p));
    },
  };
}
