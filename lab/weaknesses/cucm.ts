import type { SeededWeakness } from './types.ts';

const w = (id: string, check: string, description: string): SeededWeakness => ({
  id,
  product: 'cucm',
  description,
  check,
});

/**
 * What the weak profile seeds on the lab's CUCM node (the hardened profile seeds none of it): in the
 * publisher's database (lab/cucm/seed.ts), its OS settings and CLI facts (lab/vos/node-os.ts,
 * lab/vos/facts.ts) and its files (lab/cucm/files.ts). Each names the audit check that must find it.
 */
export const CUCM_WEAKNESSES: readonly SeededWeakness[] = [
  w('cucm-os-password-no-expiry', 'CUCM-OS-01', 'OS administrator password maximum age disabled'),
  w('cucm-tls-min-1.0', 'CUCM-TLS-01', 'TLS minimum version 1.0'),
  w('cucm-tls-all-ciphers', 'CUCM-TLS-02', 'TLS Ciphers enterprise parameter allows all cipher suites'),
  w('cucm-fips-off', 'CUCM-FIPS-01', 'FIPS mode disabled'),
  w('cucm-tomcat-cert-expiring', 'CUCM-CERT-01', 'tomcat certificate expires in 10 days'),
  w('cucm-tomcat-cert-self-signed', 'CUCM-CERT-02', 'tomcat certificate is self-signed'),
  w('cucm-cluster-non-secure', 'CUCM-CSM-01', 'cluster security mode non-secure (0)'),
  w('cucm-trunk-no-srtp', 'CUCM-CSM-02', 'SIP trunk SIP_TO_SBC does not allow SRTP'),
  w(
    'cucm-trunk-no-tls',
    'CUCM-SIPT-01',
    'SIP trunk SIP_TO_SBC on the Non Secure SIP Trunk Profile (TCP/UDP)',
  ),
  w('cucm-trunk-port-5060', 'CUCM-SIPT-02', 'SIP trunk SIP_TO_SBC sends to port 5060'),
  w('cucm-phone-profile-non-secure', 'CUCM-PHONE-01', 'phones on a Non Secure phone security profile'),
  w('cucm-phone-no-digest', 'CUCM-PHONE-02', 'SIP phone security profile without digest authentication'),
  w('cucm-credpolicy-length', 'CUCM-PWD-01', 'credential policy: minimum length 1, trivial check off'),
  w('cucm-credpolicy-lockout', 'CUCM-PWD-02', 'credential policy: no lockout after failed logons'),
  w('cucm-credpolicy-expiry', 'CUCM-PWD-03', 'credential policy: no expiry, no history'),
  w('cucm-pins-never-expire', 'CUCM-PWD-04', 'end-user PINs flagged "does not expire"'),
  w(
    'cucm-privileged-app-user',
    'CUCM-PRIV-01',
    'application user svc-integration in Standard CCM Super Users',
  ),
  w(
    'cucm-privileged-passwords-no-expiry',
    'CUCM-PRIV-02',
    'privileged application-user passwords flagged "does not expire"',
  ),
  w('cucm-security-services-off', 'CUCM-SVC-01', 'Certificate Authority Proxy Function not activated'),
  w('cucm-auto-registration-on', 'CUCM-AUTOREG-01', 'auto-registration enabled on the publisher'),
  w(
    'cucm-auto-registered-phone',
    'CUCM-AUTOREG-02',
    'lobby phone auto-registered ("Auto 9000") and never configured',
  ),
  w(
    'cucm-trunk-css-pstn',
    'CUCM-TOLL-01',
    'inbound CSS of SIP_TO_SBC reaches national and international route patterns',
  ),
  w(
    'cucm-intl-without-fac',
    'CUCM-TOLL-02',
    'phones reach international route patterns without a forced authorization code',
  ),
  w('cucm-offnet-transfer', 'CUCM-TOLL-03', 'off-net to off-net transfer not blocked'),
  w('cucm-audit-log-off', 'CUCM-LOG-01', 'Cisco Audit Event Service stopped: the audit log is not written'),
  w('cucm-cdr-off', 'CUCM-LOG-02', 'CDR Enabled Flag false on both call-processing nodes'),
  w('cucm-no-backup', 'CUCM-BKP-01', 'no DRF backup ever run'),
  w('cucm-ntp-unsynchronised', 'CUCM-OS-02', 'publisher clock not synchronised to its NTP server'),
  // Listed only: a 12.5 publisher serves other AXL schemas, which the demos and AXL tests do not expect.
  {
    ...w(
      'cucm-release-out-of-maintenance',
      'CUCM-OS-03',
      'publisher runs release 12.5.1.17900-64, out of software maintenance by the audit policy',
    ),
    listedOnly: true,
  },
  // Hardening controls (lab/cucm/seed-hardening.ts, lab/vos/node-hardening.ts).
  w(
    'cucm-phone-web-access',
    'CUCM-PHONE-03',
    'Standard Common Phone Profile lets phones serve their web page (webAccess enabled)',
  ),
  w(
    'cucm-phone-settings-access',
    'CUCM-PHONE-04',
    'Standard Common Phone Profile opens the phone Settings menu fully (settingsAccess enabled)',
  ),
  w('cucm-phone-pc-port', 'CUCM-PHONE-05', 'Standard Common Phone Profile enables the phone PC port'),
  w(
    'cucm-phone-span-to-pc',
    'CUCM-PHONE-06',
    'Standard Common Phone Profile spans phone traffic to the PC port',
  ),
  w('cucm-phone-garp', 'CUCM-PHONE-07', 'Standard Common Phone Profile lets phones accept gratuitous ARP'),
  w(
    'cucm-ldap-auth-no-tls',
    'CUCM-LDAP-01',
    'LDAP authentication of end users over plain LDAP (389, no TLS)',
  ),
  w('cucm-ldap-directory-no-tls', 'CUCM-LDAP-02', 'LDAP directory Corporate AD synchronises over plain LDAP'),
  w('cucm-saml-sso-off', 'CUCM-SSO-01', 'SAML single sign-on disabled'),
  w(
    'cucm-cti-control-all-devices',
    'CUCM-PRIV-03',
    'end user rjones in Standard CTI Allow Control of All Devices',
  ),
  w(
    'cucm-enduser-axl-access',
    'CUCM-PRIV-04',
    'end user mlee in AXL API Users, a custom group carrying the Standard AXL API Access role',
  ),
  w('cucm-esm-off', 'CUCM-FIPS-02', 'Enhanced Security Mode disabled'),
  w('cucm-web-session-timeout', 'CUCM-OS-04', 'web application sessions idle for 480 minutes before ending'),
  w('cucm-cli-session-timeout', 'CUCM-OS-05', 'CLI sessions idle for 1440 minutes before ending'),
  w('cucm-snmp-community', 'CUCM-SNMP-01', 'an SNMP v1/v2c community string configured'),
  w('cucm-snmp-v3-weak', 'CUCM-SNMP-02', 'SNMPv3 user with MD5 authentication and no privacy'),
  w('cucm-oauth-refresh-off', 'CUCM-OAUTH-01', 'enterprise parameter OAuth with Refresh Login Flow Disabled'),
];
