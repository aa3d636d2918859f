import type { LabProfile } from '../types.ts';
import type { VosProduct, VosState } from './state.ts';

/** OS settings as shipped: TLS 1.0 allowed, FIPS off, no password ageing in the weak profile. */
export function initialOsState(node: string, product: VosProduct, profile: LabProfile): VosState {
  const weak = profile === 'weak';
  return {
    node,
    product,
    tlsMinVersion: weak ? '1.0' : '1.2',
    fipsEnabled: !weak,
    // Every node ships a tomcat certificate about to expire in the weak profile.
    tomcatCertDays: weak ? 10 : 730,
    passwordMaxAgeDays: weak ? 0 : 90,
    passwordMinAgeDays: weak ? 0 : 1,
    restarts: 0,
    serviceRestarts: [],
    logins: 0,
    refusedLogins: 0,
  };
}

export function tlsVersionFor(state: VosState): 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3' {
  return state.tlsMinVersion === '1.0'
    ? 'TLSv1'
    : (`TLSv${state.tlsMinVersion}` as 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3');
}
