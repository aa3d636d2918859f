import type { SeededWeakness } from './types.ts';

/**
 * What the weak profile seeds on the lab's IMP node (the hardened profile seeds none of it), each with
 * the imp_security_audit check that must find it. Where it is seeded: lab/imp/seed.ts (database),
 * lab/imp/drf.ts (backup logs), lab/vos/node-os.ts (OS settings and NTP) and lab/vos/facts.ts
 * (certificates, services).
 */
export const IMP_WEAKNESSES: readonly SeededWeakness[] = [
  {
    id: 'imp-os-password-no-ageing',
    product: 'imp',
    description: 'OS administrator passwords never expire and have no minimum age',
    check: 'IMP-OS-01',
  },
  {
    id: 'imp-tls-min-1.0',
    product: 'imp',
    description: 'The minimum TLS version of every secure interface is 1.0',
    check: 'IMP-TLS-01',
  },
  {
    id: 'imp-fips-off',
    product: 'imp',
    description: 'The node runs in non-FIPS mode',
    check: 'IMP-FIPS-01',
  },
  {
    id: 'imp-self-signed-identity-certs',
    product: 'imp',
    description: 'The tomcat, cup-xmpp and cup-xmpp-s2s certificates are self-signed',
    check: 'IMP-CERT-01',
  },
  {
    id: 'imp-tomcat-cert-expiring',
    product: 'imp',
    description: 'The tomcat certificate expires in 10 days',
    check: 'IMP-CERT-02',
  },
  {
    id: 'imp-credpolicy-no-lockout',
    product: 'imp',
    description: 'The default credential policy never locks an account after failed logons',
    check: 'IMP-PWD-01',
  },
  {
    id: 'imp-credpolicy-weak-passwords',
    product: 'imp',
    description:
      'The default credential policy accepts one-character and trivial passwords and keeps no history',
    check: 'IMP-PWD-02',
  },
  {
    id: 'imp-credpolicy-no-expiry',
    product: 'imp',
    description: 'Credentials never expire and inactive accounts are never disabled',
    check: 'IMP-PWD-03',
  },
  {
    id: 'imp-privileged-app-user',
    product: 'imp',
    description: 'The integration account svc-integration holds the Standard CCM Super Users role',
    check: 'IMP-ACCT-01',
  },
  {
    id: 'imp-unneeded-services',
    product: 'imp',
    description:
      'Cisco XCP Directory Service and Cisco XCP SIP Federation Connection Manager run although nothing uses them',
    check: 'IMP-SVC-01',
  },
  {
    id: 'imp-audit-log-off',
    product: 'imp',
    description: 'The application audit log is off and not forwarded to a remote syslog server',
    check: 'IMP-LOG-01',
  },
  {
    id: 'imp-backup-stale',
    product: 'imp',
    description: 'The last DRF backup ran 97 days ago; no schedule runs since',
    check: 'IMP-BKP-01',
  },
  {
    id: 'imp-xmpp-client-tls-optional',
    product: 'imp',
    description: 'XMPP clients may connect without TLS',
    check: 'IMP-XMPP-01',
  },
  {
    id: 'imp-federation-without-tls',
    product: 'imp',
    description: 'XMPP federation is enabled without requiring TLS on server-to-server links',
    check: 'IMP-FED-01',
  },
  {
    id: 'imp-federation-allow-all',
    product: 'imp',
    description: 'The XMPP federation policy admits any domain and lists no partner',
    check: 'IMP-FED-02',
  },
  {
    id: 'imp-ha-disabled',
    product: 'imp',
    description: 'High availability is off on the presence redundancy group DefaultCUPSubcluster',
    check: 'IMP-HA-01',
  },
  {
    id: 'imp-ntp-unsynchronised',
    product: 'imp',
    description: 'The node is not synchronised to its NTP source (utils ntp status answers unsynchronised)',
    check: 'IMP-OS-02',
  },
  {
    id: 'imp-xmpp-router-tls-off',
    product: 'imp',
    description: 'XMPP router-to-router secure mode is off: XMPP between nodes and clusters is not encrypted',
    check: 'IMP-XMPP-02',
  },
  {
    id: 'imp-federation-no-cert-validation',
    product: 'imp',
    description: 'XMPP federation does not require federated servers to present a certificate it validates',
    check: 'IMP-FED-03',
  },
];
