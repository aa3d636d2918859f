import type { Weaknesses } from '../weaknesses/index.ts';
import { initialTraces } from './commands/trace.ts';
import { hardeningState, type HardeningSetting } from './node-hardening.ts';
import type { VosProduct, VosState } from './state.ts';

/** The weakness ids (lab/weaknesses/) behind each OS setting, per product. */
const OS_WEAKNESS: Record<
  VosProduct,
  { tls: string; fips: string; expiring: string; maxAge: string; minAge: string; ntp: string } & {
    [K in HardeningSetting]?: string;
  }
> = {
  cucm: {
    tls: 'cucm-tls-min-1.0',
    fips: 'cucm-fips-off',
    ntp: 'cucm-ntp-unsynchronised',
    expiring: 'cucm-tomcat-cert-expiring',
    maxAge: 'cucm-os-password-no-expiry',
    minAge: 'cucm-os-password-no-expiry',
    esm: 'cucm-esm-off',
    webTimeout: 'cucm-web-session-timeout',
    cliTimeout: 'cucm-cli-session-timeout',
    sso: 'cucm-saml-sso-off',
    snmpCommunity: 'cucm-snmp-community',
    snmpV3: 'cucm-snmp-v3-weak',
  },
  imp: {
    tls: 'imp-tls-min-1.0',
    fips: 'imp-fips-off',
    ntp: 'imp-ntp-unsynchronised',
    expiring: 'imp-tomcat-cert-expiring',
    maxAge: 'imp-os-password-no-ageing',
    minAge: 'imp-os-password-no-ageing',
  },
  cuc: {
    tls: 'cuc-tls-min-1.0',
    fips: 'cuc-fips-off',
    ntp: 'cuc-ntp-unsynchronised',
    expiring: 'cuc-tomcat-expiring',
    maxAge: 'cuc-os-password-max-age',
    minAge: 'cuc-os-password-min-age',
  },
};

/** OS settings as shipped (TLS 1.0 allowed, FIPS off, no password ageing) where those weaknesses are seeded. */
export function initialOsState(node: string, product: VosProduct, w: Weaknesses): VosState {
  const ids = OS_WEAKNESS[product];
  return {
    node,
    product,
    tlsMinVersion: w.has(ids.tls) ? '1.0' : '1.2',
    fipsEnabled: !w.has(ids.fips),
    ...hardeningState(w, ids),
    ntpSynchronised: !w.has(ids.ntp),
    tomcatCertDays: w.has(ids.expiring) ? 10 : 730,
    passwordMaxAgeDays: w.has(ids.maxAge) ? 0 : 90,
    passwordMinAgeDays: w.has(ids.minAge) ? 0 : 1,
    restarts: 0,
    serviceRestarts: [],
    traces: initialTraces(),
    logins: 0,
    refusedLogins: 0,
  };
}

export function tlsVersionFor(state: VosState): 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3' {
  return state.tlsMinVersion === '1.0'
    ? 'TLSv1'
    : (`TLSv${state.tlsMinVersion}` as 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3');
}
