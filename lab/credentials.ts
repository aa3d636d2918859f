/**
 * The demo credentials of the lab's nodes. They are printed by `npm run lab` and written to LAB_INFO:
 * they protect nothing but simulated nodes on loopback.
 */
export interface Credential {
  user: string;
  password: string;
}

export const DEMO_CREDENTIALS = {
  /** CUCM and IM&P application user holding the "Standard AXL API Access" role (and allowed to query RisPort). */
  axl: { user: 'axladmin', password: 'Lab-Axl-Pass1!' },
  /** VOS CLI administrator of every node. */
  os: { user: 'osadmin', password: 'Lab-Os-Pass1!' },
  /** Unity Connection administrator for CUPI. */
  cupi: { user: 'cupiadmin', password: 'Lab-Cupi-Pass1!' },
  /** End user who controls the demo phones (phone web access). */
  phone: { user: 'jsmith', password: 'Lab-Phone-Pass1!' },
  /** A second end user, controlling one phone only (to show the 401 of a device not associated). */
  phoneOther: { user: 'mlee', password: 'Lab-Phone-Pass2!' },
  /** The install-time CUCM administrator. */
  ccmAdmin: { user: 'CCMAdministrator', password: 'Lab-Ccm-Admin1!' },
} as const satisfies Record<string, Credential>;

/** The weak profile's extra privileged application user and its guessable password. */
export const WEAK_APP_USER: Credential = { user: 'svc-integration', password: 'integration' };

export type LabCredentials = Record<keyof typeof DEMO_CREDENTIALS, Credential>;

/** Services whose password a lab can be started with instead of the demo one (`LabOptions.passwords`). */
export type LabPasswordKind = 'axl' | 'os' | 'cupi' | 'phone';

/** The demo credentials with some passwords replaced (e.g. by canaries a secret-hygiene test searches for). */
export function labCredentials(passwords: Partial<Record<LabPasswordKind, string>> = {}): LabCredentials {
  const out = Object.fromEntries(
    Object.entries(DEMO_CREDENTIALS).map(([k, c]) => [k, { user: c.user, password: c.password }]),
  ) as LabCredentials;
  for (const [kind, password] of Object.entries(passwords)) {
    if (password === undefined) continue;
    if (!['axl', 'os', 'cupi', 'phone'].includes(kind) || password === '')
      throw new RangeError(`lab option passwords.${kind}: a password for axl, os, cupi or phone, not empty`);
    out[kind as LabPasswordKind].password = password;
  }
  return out;
}
