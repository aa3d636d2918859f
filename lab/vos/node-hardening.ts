import type { Weaknesses } from '../weaknesses/index.ts';
import type { VosState } from './state.ts';

/** The OS hardening settings a product's weaknesses may weaken (lab/vos/node-os.ts names the ids). */
export type HardeningSetting = 'esm' | 'webTimeout' | 'cliTimeout' | 'sso' | 'snmpCommunity' | 'snmpV3';

type HardeningState = Pick<
  VosState,
  | 'enhancedSecurityMode'
  | 'webSessionTimeoutMinutes'
  | 'cliSessionTimeoutMinutes'
  | 'samlSso'
  | 'snmpCommunities'
  | 'snmpV3Users'
>;

/**
 * The v1/v2c community string a weakness seeds: a credential, so no word that could appear in other
 * output ("public"), and tests can prove it never leaves the server (it is redacted from CLI output).
 */
export const LAB_SNMP_COMMUNITY = 'lab-c0mmunity-Zq7';

/**
 * Hardened: Enhanced Security Mode on, 15-minute idle timeouts, SAML SSO,
 * no v1/v2c community and one SNMPv3 user with SHA and AES. Each weakness weakens one of them only.
 */
export function hardeningState(w: Weaknesses, ids: { [K in HardeningSetting]?: string }): HardeningState {
  const has = (k: HardeningSetting): boolean => ids[k] !== undefined && w.has(ids[k]);
  return {
    // Independent of FIPS on purpose: a real node runs ESM only on FIPS, but then a lab seeded with
    // FIPS off alone would show two findings, and each weakness must be seen alone.
    enhancedSecurityMode: !has('esm'),
    webSessionTimeoutMinutes: has('webTimeout') ? 480 : 15,
    cliSessionTimeoutMinutes: has('cliTimeout') ? 1440 : 15,
    samlSso: !has('sso'),
    snmpCommunities: has('snmpCommunity') ? [LAB_SNMP_COMMUNITY] : [],
    snmpV3Users: [
      has('snmpV3')
        ? { name: 'nms-monitor', auth: 'MD5', priv: 'None' }
        : { name: 'nms-monitor', auth: 'SHA', priv: 'AES128' },
    ],
  };
}
