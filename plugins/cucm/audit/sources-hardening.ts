// The public sources of the CUCM hardening checks (checks-endpoints.ts, checks-access.ts,
// checks-platform.ts): each one a page that was read, with the names it confirms.
import type { Reference } from '../../_shared/audit/checklist.ts';
import { axlSchema, cucmDataDictionary712 } from '../../_shared/audit/vos-references.ts';

export const PHONE_HARDENING: Reference = {
  document: 'Security Guide for Cisco Unified Communications Manager',
  release: '12.5(1)',
  section: 'Phone Hardening (Gratuitous ARP Disable, Web Access Disable, PC Voice VLAN Access Disable)',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/security/12_5_1/cucm_b_security-guide-1251/cucm_b_security-guide-1251_chapter_01110.html',
};

export const AXL_SCHEMA_15: Reference = axlSchema(
  [
    'getLdapAuthentication',
    'ldapAuthentication.authenticateEndUsers',
    'ldapAuthentication.servers.server.hostName',
    'ldapAuthentication.servers.server.ldapPortNumber',
    'ldapAuthentication.servers.server.sslEnabled',
    'RLdapDirectory.servers.server.sslEnabled',
  ],
  'getLdapAuthentication (XLdapAuthentication); getLdapDirectory (RLdapDirectory); vendorConfig (XVendorConfig, any element)',
);

export const DATA_DICTIONARY_611: Reference = {
  document: 'Cisco Unified Communications Manager Data Dictionary',
  release: '6.1(1)',
  section: '1.0 Tables',
  url: 'https://ja.scribd.com/document/74129180/dd-611',
  confirms: ['applicationuserdirgroupmap', 'enduserdirgroupmap', 'directorypluginhost'],
};

/** The 7.1(2) table list the existing checks cite too, for the phone tables these checks read. */
export const DATA_DICTIONARY_712: Reference = cucmDataDictionary712([
  'device',
  'commonphoneconfig',
  'commonphoneconfigxml',
]);

export const JTAPI_SAMPLES: Reference = {
  document: 'CiscoDevNet jtapi-samples README (Requirements: roles of the CUCM user)',
  release: 'CUCM 11.5-14',
  section: 'Requirements',
  url: 'https://github.com/CiscoDevNet/jtapi-samples',
  confirms: ['Standard CTI Allow Control of all Devices', 'Standard CTI Enabled'],
};

export const AXL_FAQ: Reference = {
  document: 'Cisco AXL FAQ (DevNet)',
  release: '11.5-15',
  section: 'Getting Started: What permissions/roles are required for a user to access AXL?',
  url: 'https://developer.cisco.com/docs/axl/faq',
  confirms: [
    'Standard AXL API Access (a role: "Note these are roles")',
    'no standard group holds just the AXL roles: a new group carrying them is created for the AXL application user',
  ],
};

/**
 * The AXL wiki's FAQ on a phone's product-specific (vendor config) XML since Unified CM 8.0: not in the
 * device table any more, but in separate tables read one device at a time with a stored procedure.
 */
export const AXL_WIKI_DEVICE_XML: Reference = {
  document: 'AXL Frequently Asked Questions (Cisco Developer Network AXL wiki)',
  release: 'Unified CM 8.0 and later',
  section:
    "The SQL 'device' table in UCM 8.0 no longer contains an 'XML' field for storing vendor config, custom XML configurations. How can I read/write this data?",
  url: 'https://developer.cisco.com/web/axl/wikidocs/-/wiki/Main/Frequently+Asked+Questions',
  confirms: [
    'the device table has no XML field since UCM 8.0: the vendor config XML is split out into separate tables',
    "execute procedure dbreaddevicexml('<device pkid>') (one device's vendor config, through executeSQLQuery)",
    'dbwritedevicexml (through executeSQLUpdate)',
    'pcPort, settingsAccess, garp, webAccess (vendor config elements in its dbwritedevicexml example)',
  ],
};

export const FIPS_ESM_1251SU6: Reference = {
  document: 'Security Guide for Cisco Unified Communications Manager',
  release: '12.5(1)SU6',
  section:
    'FIPS Mode Setup: Enhanced Security Mode; Configure Enhanced Security Mode; FIPS Mode Restrictions (SNMP v3)',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/security/12_5_1SU6/cucm_b_security-guide-1251su6/cucm_m_fips-mode-setup_su2_reorg.html',
  confirms: ['utils EnhancedSecurityMode status', 'utils fips status'],
};

export const FIPS_14SU2: Reference = {
  document: 'Security Guide for Cisco Unified Communications Manager',
  release: '14SU2',
  section: 'FIPS Mode Setup',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/security/14SU2/cucm_b_security-guide-14su2/cucm_m_fips-mode-setup_su2_reorg.html',
};

export const CLI_UTILS_1251SU5: Reference = {
  document: 'Command Line Interface Reference Guide for Cisco Unified Communications Solutions',
  release: '12.5(1)SU5',
  section:
    'Utils Commands: utils EnhancedSecurityMode status ("displays whether the system is operating in EnhancedSecurityMode or non-EnhancedSecurityMode mode")',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/cli_ref/12_5_1SU5/cucm_b_cli_reference-guide_release1251SU5/cucm_b_cli_reference_guide_release_1401_chapter_01001.html',
  confirms: ['utils EnhancedSecurityMode status'],
};

export const CLI_SHOW_1251SU3: Reference = {
  document: 'Command Line Interface Reference Guide for Cisco Unified Communications Solutions',
  release: '12.5(1)SU3',
  section: 'Show Commands: show cli session timeout',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm/cli_ref/12_5_1SU3/cucm_b_command-line-interface-reference-guide_1251su3/cucm_b_command-line-interface-reference-guide-1251Su2_chapter_0111.html',
  confirms: ['show cli session timeout'],
};

export const CUIC_CLI_1262: Reference = {
  document: 'Administration Console User Guide for Cisco Unified Intelligence Center (VOS CLI)',
  release: '12.6(2)',
  section:
    'Command Line Interface: utils snmp config 1/2c community-string; utils snmp config 3 user; show cli',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cust_contact/contact_center/intelligence_suite/intelligence_suite_1262/maintain_and_operate/guide/cuic_b_1262-admin-console-user-guide/cuic_m_1261-command-line-interface.html',
  confirms: [
    'utils snmp config 1/2c community-string list',
    'utils snmp config 3 user list',
    'show cli session timeout',
  ],
};

export const SSO_TROUBLESHOOT: Reference = {
  document: 'Troubleshoot SSO in Cisco Unified Communications Manager (Document ID 213293)',
  release: '11.5(1)SU2',
  section: 'Logs and CLI Commands: utils sso status',
  url: 'https://www.cisco.com/c/en/us/support/docs/unified-communications/unified-communications-manager-callmanager/213293-troubleshoot-sso-in-cucm.html',
  confirms: ['utils sso status'],
};

export const SSO_CONFIGURE: Reference = {
  document: 'Configure and Troubleshoot SSO on Cisco Unified Communications Manager (Document ID 217268)',
  release: '12.5(1)',
  section: 'Common Issues (utils sso status output)',
  url: 'https://www.cisco.com/c/en/us/support/docs/unified-communications/unified-communications-manager-callmanager/217268-configure-and-troubleshoot-sso-on-cisco.html',
  confirms: ['utils sso status', 'SSO Status: SAML SSO Enabled'],
};
