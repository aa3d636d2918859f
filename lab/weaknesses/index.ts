// The lab's seeded weaknesses, per product: the ground truth the security-audit tests measure recall
// and false positives against. The weak profile seeds every one, the hardened profile none, and
// `LAB_WEAKNESSES` (startLab `weaknesses`) any combination of them.
import type { LabProfile } from '../types.ts';
import { CUC_WEAKNESSES } from './cuc.ts';
import { CUCM_WEAKNESSES } from './cucm.ts';
import { IMP_WEAKNESSES } from './imp.ts';
import type { SeededWeakness } from './types.ts';

export type { SeededWeakness } from './types.ts';

/** The ids of the weaknesses a lab seeds: seeding code asks `has('<id>')` of it, nothing else. */
export type Weaknesses = ReadonlySet<string>;

export type WeaknessProduct = 'cucm' | 'imp' | 'cuc';

/** What seeding code reads: the profile (for data that is not a weakness) and the weaknesses to seed. */
export interface LabSeeding {
  profile: LabProfile;
  weaknesses: Weaknesses;
}

const BY_PRODUCT = { cucm: CUCM_WEAKNESSES, imp: IMP_WEAKNESSES, cuc: CUC_WEAKNESSES } as const;

export function weaknessesOf(product: WeaknessProduct): readonly SeededWeakness[] {
  return BY_PRODUCT[product];
}

export function allWeaknesses(): readonly SeededWeakness[] {
  return [...CUCM_WEAKNESSES, ...IMP_WEAKNESSES, ...CUC_WEAKNESSES];
}

/**
 * The set a lab seeds: the explicit list when given (it overrides the profile), else every weakness
 * for the weak profile (but the `listedOnly` ones, seeded only when listed) and none for the hardened
 * one. An unknown id is an error naming the known ones, so a typo never silently seeds less than asked.
 */
export function resolveWeaknesses(profile: LabProfile, ids?: readonly string[]): Weaknesses {
  if (ids === undefined)
    return new Set(profile === 'weak' ? allWeaknesses().flatMap((w) => (w.listedOnly ? [] : [w.id])) : []);
  const known = new Set(allWeaknesses().map((w) => w.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new RangeError(
      `unknown lab weakness ${unknown.slice(0, 5).join(', ')}; known ids are listed in lab/weaknesses/ (e.g. ${[...known].slice(0, 3).join(', ')})`,
    );
  return new Set(ids);
}

/** `a,b , c` as ids (LAB_WEAKNESSES and the benchmark's --weaknesses); an empty string is no weakness. */
export function parseWeaknessList(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** What a lab with this profile or set seeds for one product: the ground truth its audit must find exactly. */
export function seededWeaknesses(
  seeded: LabProfile | Weaknesses,
  product: WeaknessProduct,
): readonly SeededWeakness[] {
  const set = typeof seeded === 'string' ? resolveWeaknesses(seeded) : seeded;
  return BY_PRODUCT[product].filter((w) => set.has(w.id));
}

/**
 * One line saying what a lab seeded, for `npm run lab` and `npm run demo`: the whole profile in a
 * count, an explicit set (LAB_WEAKNESSES) by its ids.
 */
export function describeSeeded(profile: LabProfile, seeded: readonly string[]): string {
  const whole = resolveWeaknesses(profile);
  if (seeded.length === whole.size && seeded.every((id) => whole.has(id)))
    return profile === 'weak'
      ? `weak profile: all ${seeded.length} weaknesses seeded`
      : 'hardened profile: no weakness seeded';
  if (seeded.length === 0) return `LAB_WEAKNESSES: no weakness seeded (${profile} profile data)`;
  return `LAB_WEAKNESSES: ${seeded.length} weakness${seeded.length === 1 ? '' : 'es'} seeded (${profile} profile data): ${seeded.join(', ')}`;
}
