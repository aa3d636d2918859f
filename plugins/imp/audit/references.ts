// The public sources behind the IM&P audit: the vendor text that describes each control, and the
// references that confirm the names the evidence uses. Every entry was read at its URL; `confirms` lists
// only names that text shows. Names no public text confirms are called out in each check's `unverified`.
import type { Reference } from '../../_shared/audit/checklist.ts';
import {
  axlSchema,
  cucmDataDictionary712,
  vosCliShow,
  vosCliUtils,
} from '../../_shared/audit/vos-references.ts';

export {
  VOS_SERVICE_LIST_FINESSE as SERVICE_LIST_FORMAT,
  VOS_TLS_MIN_VERSION as TLS_MIN_VERSION,
  VOS_FIPS_COMMANDS as FIPS_COMMANDS,
  VOS_NTP_SYNCHRONISED as NTP_ON_IMP,
  VOS_NTP_UNSYNCHRONISED as NTP_UNSYNCHRONISED,
  VOS_CERT_LIST_OWN as CERT_LIST_OWN,
  VOS_SELF_SIGNED_DESCRIPTION as SELF_SIGNED_DESCRIPTION,
  VOS_CERT_OWN_VALIDITY as CERT_OWN_VALIDITY,
  VOS_SHOW_CERT_OWN_FILE as SHOW_CERT_OWN_FILE,
  CUCM_USER_GROUP_SQL as USER_GROUP_SQL,
  VOS_SNMP_COMMUNITY_SCRIPT as ONBOARDING_SCRIPT,
} from '../../_shared/audit/vos-references.ts';

export const CLI_SHOW_COMMANDS: Reference = vosCliShow(
  'show password expiry; show cert list; show cert own',
  [
    'show password expiry maximum-age',
    'show password expiry minimum-age',
    'show cert list own',
    'show cert own',
  ],
);

export const CLI_UTILS_COMMANDS: Reference = vosCliUtils('utils ntp status; utils service list', [
  'utils ntp status',
  'utils service list',
]);

const CISCO_DOCS = 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm';

const IMP_CONFIG_1251SU2 = `${CISCO_DOCS}/im_presence/configAdminGuide/12_5_1_su2/cup0_b_config-and-admin-guide-1251su2`;

/** System > Security > Settings: the XMPP client, router-to-router and web client secure modes. */
export const XMPP_SECURITY_SETTINGS: Reference = {
  document: 'Configuration and Administration of the IM and Presence Service',
  release: '12.5(1)SU2',
  section: 'Configure Security Settings: Configure Secure XMPP Connections (XMPP Security Settings)',
  url: `${IMP_CONFIG_1251SU2}/cup0_b_config-and-admin-guide-1251su2_chapter_01011.html`,
};

/** The certificate types of IM&P and the services that present them. */
export const IMP_CERTIFICATE_TYPES: Reference = {
  document: 'Configuration and Administration of the IM and Presence Service',
  release: '12.5(1)SU2',
  section: 'Configure Certificates: Certificate Types in the IM and Presence Service',
  url: `${IMP_CONFIG_1251SU2}/cup0_b_config-and-admin-guide-1251su2_chapter_01010.html`,
  confirms: ['tomcat', 'cup-xmpp', 'cup-xmpp-s2s'],
};

/** Security mode (No TLS / TLS Optional / TLS Required), client-side certificates, SASL, dialback, policy. */
export const XMPP_FEDERATION: Reference = {
  document: 'Interdomain Federation Guide for the IM and Presence Service',
  release: '14 and SUs',
  section:
    'IM and Presence Service Configuration for XMPP Federation: Configure Security Settings for XMPP Federation; Configure Policy for XMPP Federation; Turn On XMPP Federation Service',
  url: `${CISCO_DOCS}/im_presence/interdomain_federation/14/cup0_b_interdomain-federation-guide-14/cup0_b_interdomain-federation-1251su3_chapter_01101.html`,
  confirms: ['Cisco XCP XMPP Federation Connection Manager'],
};

/** Presence redundancy groups and their Enable High Availability check box (configured on Unified CM). */
export const HIGH_AVAILABILITY: Reference = {
  document: 'Configuration and Administration of the IM and Presence Service',
  release: '15 and SUs',
  section:
    'Configure IM Addressing Scheme: Disable High Availability; Enable High Availability (System > Presence Redundancy Groups)',
  url: `${CISCO_DOCS}/im_presence/configAdminGuide/15_0/cup0_b_config-and-admin-guide-15/cup0_b_config-and-admin-guide-1401_chapter_011.html`,
};

/** The IM and Presence feature services, by the names Serviceability and `utils service list` use. */
export const IMP_SERVICES: Reference = {
  document: 'Administration Guide for Cisco Unified Communications Manager',
  release: '14 and SUs',
  section: 'Services: IM and Presence Services',
  url: `${CISCO_DOCS}/admin/14SU2/adminGd/cucm_b_administration-guide-14su2/cucm_b_test-adminguide_chapter_010111.html`,
  confirms: [
    'Cisco XCP Directory Service',
    'Cisco XCP SIP Federation Connection Manager',
    'Cisco XCP XMPP Federation Connection Manager',
  ],
};

/** The application audit log, its Serviceability configuration and the service that writes it. */
export const AUDIT_LOGGING: Reference = {
  document: 'Administration Guide for Cisco Unified Communications Manager',
  release: '12.5(1)SU4',
  section: 'Troubleshooting Tools: Audit Logging (Application Log)',
  url: `${CISCO_DOCS}/admin/12_5_1SU4/cucm_b_administration-guide-1251su4/cucm_b_test-adminguide_chapter_011010.html`,
  confirms: ['Cisco Audit Event Service', 'Tools > Audit Log Configuration'],
};

export const AXL_CREDENTIAL_POLICY: Reference = axlSchema(
  [
    'listCredentialPolicy',
    'name',
    'failedLogon',
    'resetFailedLogonAttempts',
    'lockoutDuration',
    'credExpiresAfter',
    'minCredLength',
    'prevCredStoredNum',
    'inactiveDaysAllowed',
    'trivialCredCheck',
  ],
  'listCredentialPolicy (LCredentialPolicy)',
);

export const AXL_PRESENCE_REDUNDANCY_GROUP: Reference = axlSchema(
  ['listPresenceRedundancyGroup', 'name', 'server1', 'server2', 'haEnabled'],
  'listPresenceRedundancyGroup (LPresenceRedundancyGroup)',
);

/** What the AXL schema says about application users; the SQL tables behind it have no public text here. */
export const AXL_APP_USER: Reference = axlSchema(
  ['isStandard'],
  'getAppUser / listAppUser (RAppUser, LAppUser: isStandard, associatedGroups)',
);

/**
 * The table list of a CUCM database dictionary (a copy on a document-sharing site). IM&P holds the same
 * user tables as Unified CM; no IM&P dictionary is public, so the release recorded is the CUCM one.
 */
export const CUCM_DATA_DICTIONARY_712: Reference = cucmDataDictionary712([
  'applicationuser',
  'applicationuserdirgroupmap',
]);
