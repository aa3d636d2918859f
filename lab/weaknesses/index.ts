// The lab's seeded weaknesses, per product: the ground truth the security-audit tests measure recall
// and false positives against. The hardened profile seeds none.
import type { LabProfile } from '../types.ts';
import { CUC_WEAKNESSES } from './cuc.ts';
import { CUCM_WEAKNESSES } from './cucm.ts';
import { IMP_WEAKNESSES } from './imp.ts';
import type { SeededWeakness } from './types.ts';

export type { SeededWeakness } from './types.ts';

const BY_PRODUCT = { cucm: CUCM_WEAKNESSES, imp: IMP_WEAKNESSES, cuc: CUC_WEAKNESSES } as const;

export function seededWeaknesses(
  profile: LabProfile,
  product: 'cucm' | 'imp' | 'cuc',
): readonly SeededWeakness[] {
  return profile === 'weak' ? BY_PRODUCT[product] : [];
}
