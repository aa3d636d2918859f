// Unity Connection at scale: a mailbox for the first people of the plan, each at the extension of the
// phone the same person owns on CUCM (as an import from CUCM would make them).
import type { CupiStore } from '../cuc/cupi/store.ts';
import type { ScalePlan } from './plan.ts';
import { dnOf } from './plan.ts';
import { Rng } from './random.ts';

/** A fixed epoch: creation times must not depend on when the lab starts. */
const EPOCH = Date.UTC(2024, 0, 15);

export function applyCucScale(store: CupiStore, plan: ScalePlan): void {
  const users = store.collection('users');
  const rng = new Rng(plan.seed, 'cuc');
  const need = Math.max(0, plan.spec.cucUsers - users.items.size);
  const taken = new Set([...users.items.values()].map((u) => (u.Alias ?? '').toLowerCase()));
  let made = 0;
  for (let i = 0; made < need && i < plan.people.length; i++) {
    const p = plan.people[i];
    if (!p || taken.has(p.userid)) continue;
    const id = rng.uuid();
    const created = new Date(EPOCH - rng.int(900) * 86_400_000).toISOString().replace('T', ' ').slice(0, 23);
    // Added straight into the collection: create() checks the alias against every user (quadratic at
    // this size) and the plan's aliases are unique by construction.
    users.items.set(id, {
      URI: `/vmrest/users/${id}`,
      ObjectId: id,
      Alias: p.userid,
      FirstName: p.first,
      LastName: p.last,
      DisplayName: `${p.first} ${p.last}`,
      DtmfAccessId: dnOf(plan, i),
      SmtpAddress: `${p.userid}@lab.example.com`,
      IsVmEnrolled: rng.chance(0.9) ? 'true' : 'false',
      ListInDirectory: 'true',
      CreationTime: created,
    });
    const changedDaysAgo = rng.int(400);
    store.pins.set(id, {
      pin: String(10_000_000 + rng.int(89_999_999)),
      CredMustChange: rng.chance(0.05) ? 'true' : 'false',
      DoesntExpire: 'false',
      Locked: rng.chance(0.01) ? 'true' : 'false',
      HackCount: '0',
      TimeChanged: new Date(EPOCH - changedDaysAgo * 86_400_000).toISOString().replace('T', ' ').slice(0, 23),
    });
    made++;
  }
}
