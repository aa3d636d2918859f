// The data of a scaled lab without any listener: what the nodes are seeded with, for the determinism
// test and the benchmark's generation time. startLab seeds each node the same way (cucm/start.ts,
// cuc/start.ts, imp/start.ts).
import { createHash } from 'node:crypto';
import { seedCuc } from '../cuc/seed.ts';
import type { CupiStore } from '../cuc/cupi/store.ts';
import type { Registration } from '../cucm/ris/registrations.ts';
import { seedRegistrations } from '../cucm/ris/registrations.ts';
import { seedCucm } from '../cucm/seed.ts';
import { seedImp } from '../imp/seed.ts';
import type { Database } from '../informix/database.ts';
import { resolveWeaknesses } from '../weaknesses/index.ts';
import type { LabProfile } from '../types.ts';
import { applyCucScale } from './cuc.ts';
import { applyCucmScale } from './cucm.ts';
import { applyImpScale } from './imp.ts';
import type { ScalePlan } from './plan.ts';
import { makePlan } from './plan.ts';
import { pkidSource } from './random.ts';
import { addScaleRegistrations } from './ris.ts';
import type { LabScale } from './spec.ts';
import { CUCM_PUBLISHER } from '../cucm/topology.ts';

export interface LabData {
  plan: ScalePlan | undefined;
  cucm: Database;
  registrations: Map<string, Registration[]>;
  risNodes: string[];
  /** Names of the generated phones (their registrations are the seed's; the demo ones are the clock's). */
  scalePhones: string[];
  cuc: CupiStore;
  imp: Database;
}

export function generateLabData(o: {
  scale: LabScale;
  seed: string;
  profile?: LabProfile;
  weaknesses?: readonly string[];
  /** Seconds since the epoch that registration times count back from. */
  now: number;
}): LabData {
  const profile = o.profile ?? 'weak';
  const seeding = { profile, weaknesses: resolveWeaknesses(profile, o.weaknesses) };
  const plan = makePlan(o.scale, o.seed);
  const cucm = seedCucm(seeding, 0, 15, undefined, pkidSource(o.seed, `cucm:${CUCM_PUBLISHER}`));
  const scaled = plan ? applyCucmScale(cucm, plan) : undefined;
  const registrations = seedRegistrations(cucm, 0);
  if (scaled) addScaleRegistrations(registrations, scaled.phones, o.seed, o.now);
  const cuc = seedCuc(seeding);
  if (plan) applyCucScale(cuc, plan);
  const imp = seedImp(seeding, undefined, pkidSource(o.seed, 'imp'));
  if (plan) applyImpScale(imp, plan);
  return {
    plan,
    cucm,
    registrations,
    risNodes: scaled?.nodes ?? [],
    scalePhones: scaled?.phones.map((p) => p.name) ?? [],
    cuc,
    imp,
  };
}

/**
 * SHA-256 over what the seed decides: every database row (credential rows aside: their hashes are
 * salted and their change times are the start time), the generated registrations and mailboxes.
 */
export function digestLabData(d: LabData): string {
  const h = createHash('sha256');
  for (const db of [d.cucm, d.imp]) {
    for (const name of db.tableNames()) {
      if (name === 'credential') continue;
      h.update(`\u0000${name}\u0000`);
      for (const row of db.table(name).rows) h.update(JSON.stringify(row));
    }
  }
  const people = new Set(d.plan?.people.map((p) => p.userid));
  for (const name of d.scalePhones) h.update(name + JSON.stringify(d.registrations.get(name) ?? null));
  for (const u of d.cuc.collection('users').items.values())
    if (people.has(u.Alias ?? '')) {
      h.update(JSON.stringify(u));
      h.update(JSON.stringify(d.cuc.pins.get(u.ObjectId ?? '')));
    }
  h.update(JSON.stringify(d.risNodes));
  return h.digest('hex');
}
