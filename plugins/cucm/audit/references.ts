// The public sources behind the CUCM audit's existing checks: the vendor text that describes each
// control, and the references that confirm the names the evidence uses. Every entry was read at its URL
// (or, for the AXL schema, in the 15.0 schema files); `confirms` lists only names that text shows. Names
// no public text confirms are called out in each check's `unverified`.
import type { Reference } from '../../_shared/audit/checklist.ts';
import { cucmDataDictionary712, vosCliShow } from '../../_shared/audit/vos-references.ts';

export {
  axlSchema,
  vosCliUtils as cliUtils,
  VOS_NTP_SYNCHRONISED as NTP_SYNCHRONISED,
  VOS_NTP_UNSYNCHRONISED as NTP_UNSYNCHRONISED,
  VOS_SERVICE_LIST,
} from '../../_shared/audit/vos-references.ts';

/** The Show Commands chapter; its section is narrowed per command where a check cites it. */
export const CLI_SHOW_CERT: Reference = vosCliShow('show cert', ['show cert list own']);

const CUCM_DOCS = 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm';
const SECURITY_15 = `${CUCM_DOCS}/security/15_0/cucm_b_security-guide-release-15`;
const SECURITY_1251SU5 = `${CUCM_DOCS}/security/12_5_1SU5/cucm_b_security-guide-1251su5`;
const SECURITY_GUIDE = 'Security Guide for Cisco Unified Communications Manager';

export const TLS_SETUP: Reference = {
  document: SECURITY_GUIDE,
  release: '15 and SUs',
  section: 'TLS Setup: Set Minimum TLS Version; Set TLS Ciphers',
  url: `${SECURITY_15}/cucm_m_tls-setup.html`,
  confirms: [
    'show tls min-version',
    'set tls min-version',
    'TLS Ciphers (enterprise parameter, display name)',
  ],
};

export const TLS_TRUNK_PROFILE: Reference = {
  document: SECURITY_GUIDE,
  release: '15 and SUs',
  section: 'TLS Setup: Configure TLS in a SIP Trunk Security Profile; Add Secure Profile to a SIP Trunk',
  url: `${SECURITY_15}/cucm_m_tls-setup.html`,
  confirms: ['Device Security Mode Encrypted', 'Incoming Transport Type TLS', 'Outgoing Transport Type TLS'],
};

export const TLS_PHONE_PROFILE: Reference = {
  document: SECURITY_GUIDE,
  release: '15 and SUs',
  section: 'TLS Setup: Configure TLS in a Phone Security Profile; Add Secure Phone Profile to a Phone',
  url: `${SECURITY_15}/cucm_m_tls-setup.html`,
  confirms: ['Device Security Mode Encrypted'],
};

export const SECURITY_MODES: Reference = {
  document: SECURITY_GUIDE,
  release: '12.5(1)SU5',
  section: 'Security Modes: Non Secure Mode (Default Mode); Mixed Mode',
  url: `${SECURITY_1251SU5}/cucm_m_ucm-security-modes_reorg.html`,
};

export const PHONE_SECURITY: Reference = {
  document: SECURITY_GUIDE,
  release: '12.5(1)SU5',
  section:
    'Phone Security: Phone Security Overview; Phone Security Profiles; Digest Authentication for SIP Phones',
  url: `${SECURITY_1251SU5}/cucm_m_phone-security_reorg.html`,
};

/** Tokenless CTL: mixed mode through the CLI, no USB eTokens and no CTL Client plugin (hence no CTL Provider). */
export const TOKENLESS_CTL: Reference = {
  document: 'Migrate CUCM Mixed Mode with Tokenless CTL (Cisco technote, document ID 118893)',
  release: '10.0(1) and later',
  section: 'Background Information; From Non-Secure Mode to Mixed Mode (Tokenless CTL)',
  url: 'https://www.cisco.com/c/en/us/support/docs/unified-communications/unified-communications-manager-callmanager/118893-technote-cucm-00.html',
  confirms: [
    'utils ctl set-cluster mixed-mode',
    'processconfig.paramname',
    'processconfig.paramvalue',
    "paramname 'ClusterSecurityMode' (0: not mixed mode, 1: mixed mode)",
  ],
};

/** Toll fraud, certificates and tokenless CTL in Cisco's validated design. */
export const PA_SECURITY: Reference = {
  document: 'Preferred Architecture for Cisco Collaboration 12.x Enterprise On-Premises Deployments, CVD',
  release: '12.x',
  section:
    'Security: Toll Fraud; Certificate Management; CA-Signed Certificates Instead of Self-Signed Certificates',
  url: 'https://www.cisco.com/c/en/us/td/docs/solutions/CVD/Collaboration/enterprise/12x/120/collbcvd/security.html',
  confirms: ['Block OffNet to OffNet Transfer (CallManager service parameter, display name)'],
};

export const CDR_SERVICE_PARAMETERS: Reference = {
  document: 'Cisco Unified CDR Analysis and Reporting Administration Guide',
  release: '12.5(1)',
  section: 'CDR Analysis and Reporting Tool: CDR Service Parameters',
  url: `${CUCM_DOCS}/service/12_5_1/Car/cucm_b_cdr-analysis-reporting-admin-guide-1251/cucm_b_cdr-analysis-reporting-admin-guide-1251_chapter_010.html`,
  confirms: [
    'CDR Enabled Flag (display name; default False, to enable on all servers)',
    'Standard CCM Super Users',
  ],
};

export const DATA_DICTIONARY_105: Reference = {
  document: 'Cisco Unified Communications Manager Database Dictionary',
  release: '10.5(1)',
  section: '1.0 Tables',
  url: 'https://d1g3a8w4jo4hjn.cloudfront.net/fileMedia/49455079-2ec6-40e1-9f74-1b55ad67b064/UCM_10.5_Data_Dictionary.zip',
  confirms: [
    'applicationuser',
    'applicationuserdirgroupmap',
    'callingsearchspace',
    'callingsearchspacemember',
  ],
};

export const RISPORT70: Reference = {
  document: 'RisPort70 WSDL (RISService70.wsdl), CiscoDevNet serviceability samples',
  release: '12.5',
  section: 'SelectCmDevice: CmSelectBy and CmDevice',
  url: 'https://github.com/CiscoDevNet/serviceability-python-zeep-samples',
  confirms: ['SelectCmDevice', 'SelectBy Description', 'Description', 'DeviceClass Phone'],
};

/** The table list of an older dictionary (a copy hosted by a document-sharing site). */
export const DATA_DICTIONARY_712: Reference = cucmDataDictionary712([
  'credential',
  'credentialpolicy',
  'device',
  'applicationuser',
  'applicationuserdirgroupmap',
]);

/**
 * Cisco's own sample that scrapes the Service Parameter and Enterprise Parameter pages and maps each
 * label to the programmatic id the page submits: the name a parameter's processconfig row carries.
 */
export const SERVICE_PARAMETER_IDS: Reference = {
  document:
    'cucm-service-param-name-mapper (CiscoDevNet sample: Unified CM parameter labels mapped to their programmatic ids)',
  release: '12.5(1)SU6 and 14',
  section:
    'output_v12.51SU6.json and output_v14.json: services "Enterprise Wide" and "Cisco CallManager (Active)"',
  url: 'https://github.com/CiscoDevNet/cucm-service-param-name-mapper',
  confirms: [
    'TLSCipherPreference (Enterprise Wide, label "TLS Ciphers")',
    'CdrEnabled (Cisco CallManager, label "CDR Enabled Flag")',
    'BlockOffNetToOffNetTransfer (Cisco CallManager, label "Block OffNet To OffNet Transfer")',
    'Cisco Audit Event Service: no service parameters',
  ],
};

/**
 * A public walk-through of `run sql` on a Unified CM lab, with the full column lists `select *` prints
 * (the dictionary it links is the 11.0(1) one).
 */
export const CUCM_SQL_EXAMPLES: Reference = {
  document: 'levensailor/cucm-sql-examples README (run sql on a Unified CM cluster, with the output)',
  release: 'release not stated (links the Data Dictionary 11.0(1))',
  section:
    "#2 (select first 2 * from device where name like 'SEP%'); #7 (select first 3 * from callingsearchspace; routepartition); #1 (enduser)",
  url: 'https://github.com/levensailor/cucm-sql-examples/blob/0f76956e5a88ac4124c9a45270b540a15adcdbb9/README.md',
  confirms: [
    'device.pkid',
    'device.name',
    'device.fkcallingsearchspace',
    'device.fksecurityprofile',
    'device.fkcommonphoneconfig',
    'device.tkclass (1 on the SEP phones listed)',
    'device has no xml column in the select * output',
    'callingsearchspace.pkid',
    'callingsearchspace.name',
    'callingsearchspace.clause (the ordered partition names, colon-separated)',
    'routepartition.pkid',
    'routepartition.name',
    'enduser.pkid',
    'enduser.userid',
  ],
};

/** A public query pattern for SIP trunk inventories, validated by its author against Unified CM 15. */
export const SIP_TRUNK_QUERY_PATTERN: Reference = {
  document: 'mcaxl query pattern "SIP Trunk Report" (docs/query-patterns/sip-trunk-report.md, MCP/mcaxl)',
  release: '15 (validated by the author against 15.0(1))',
  section: 'Source-of-truth tables',
  url: 'https://git.supported.systems/MCP/mcaxl/raw/commit/d597bd3569adc3fc57af0a729eac026ecb598bd0/docs/query-patterns/sip-trunk-report.md',
  confirms: [
    'siptrunkdestination (one row per destination IP/port of a SIP trunk, ordered by sortorder)',
    'device.fksecurityprofile',
    'device.fkcallingsearchspace',
  ],
};

/** A public Python library's SQL helpers for Unified CM administration (AXL executeSQLQuery/Update). */
export const CISCOCUCMAPI_SQL: Reference = {
  document: 'ciscocucmapi (jonathanelscpt), src/ciscocucmapi/sql_utils.py',
  release: 'AXL 10.0 to 12.5 era (commit b9fdf6e9, January 2020)',
  section: 'associate_enduser_to_user_group; get_service_parameter_details; update_service_parameter',
  url: 'https://github.com/jonathanelscpt/ciscocucmapi/blob/b9fdf6e9ce8163334a32ae2ac6d4e126625acf91/src/ciscocucmapi/sql_utils.py',
  confirms: [
    'enduserdirgroupmap.fkenduser',
    'enduserdirgroupmap.fkdirgroup (the pkid of a user group)',
    'processconfig.paramname',
    'processconfig.paramvalue',
  ],
};

/**
 * A public configuration tracker that runs its SQL against a Unified CM publisher through AXL
 * executeSQLQuery: the joins it uses name the tables and columns below.
 */
export const CUCM_CONFIG_TRACKER: Reference = {
  document:
    'usharanig92/Cisco-Unified-Communications-CUCM-Config-Tracker, cucmconfigtracker.py (SQL templates run through AXL executeSQLQuery)',
  release: 'release not stated (commit eed0523)',
  section: 'common_phone_profile_sql; sip_trunks_sql; access_control_groups_sql; application_users_sql',
  url: 'https://github.com/usharanig92/Cisco-Unified-Communications-CUCM-Config-Tracker/blob/eed05239a49df4f8b662e3117c884de5388cebf4/cucmconfigtracker.py',
  confirms: [
    'commonphoneconfig.pkid',
    'commonphoneconfig.name',
    'commonphoneconfigxml.fkcommonphoneconfig',
    "commonphoneconfigxml.xml (the common phone profile's product-specific XML)",
    'sipdevice.fkdevice',
    'applicationuser.pkid',
    'applicationuser.name',
    "applicationuser.isstandard ('f' for accounts that are not built in)",
    'applicationuserdirgroupmap.fkapplicationuser',
    'applicationuserdirgroupmap.fkdirgroup',
    'dirgroup.pkid',
    'dirgroup.name',
  ],
};

/** A public migration tool's SQL for SIP trunk destinations (siptrunkdestination joined to sipdevice). */
export const PERCELER_SIP_TRUNK_DESTINATIONS: Reference = {
  document: 'axenlarde/PERCELER, src/com/alex/perceler/device/misc/DeviceTools.java',
  release: 'release not stated (commit c946b65, 2019)',
  section: 'getSIPTrunkDestination; getSIPTrunk',
  url: 'https://github.com/axenlarde/PERCELER/blob/c946b659e157490afe5012300f2cce346503535b/src/com/alex/perceler/device/misc/DeviceTools.java',
  confirms: [
    'siptrunkdestination.pkid',
    'siptrunkdestination.address',
    'siptrunkdestination.port',
    'siptrunkdestination.fksipdevice (= sipdevice.pkid)',
    'sipdevice.fkdevice (= device.pkid)',
  ],
};

/** A public Python client's SQL list helpers (AXL executeSQLQuery). */
export const TINYCUCM_SQL: Reference = {
  document: 'luarvick/tinyCUCM, src/tinyCUCM/client.py',
  release: 'release not stated (commit 57ff0c5)',
  section: 'sqlListDirGroup',
  url: 'https://github.com/luarvick/tinyCUCM/blob/57ff0c54f1bbb2545e74bee61973ab528874cf5f/src/tinyCUCM/client.py',
  confirms: ['dirgroup.pkid', 'dirgroup.name'],
};

/** A Cisco TAC document that runs SQL on the CUCM publisher to read an application user's password row. */
export const IMP_SYNC_AGENT_TAC: Reference = {
  document: 'Troubleshoot Services That Do Not Start on IM&P (Cisco TAC, Document ID 217304)',
  release: 'updated June 12, 2025',
  section: 'Specific Services Does Not Start: Cisco Sync Agent (run sql on the CUCM)',
  url: 'https://www.cisco.com/c/en/us/support/docs/unified-communications/unified-communications-manager-im-presence-service/217304-troubleshooting-services-not-starting-on.html',
  confirms: [
    'applicationuser.pkid',
    'applicationuser.name',
    'credential.fkapplicationuser',
    "credential.tkcredential = 3 (the application user's password)",
  ],
};

/** Cisco's table of the standard roles and the standard access control groups that carry them. */
export const STANDARD_ROLES_AND_GROUPS: Reference = {
  document: 'System Configuration Guide for Cisco Unified Communications Manager',
  release: '12.5(1)',
  section: 'Configure User Access: Standard Roles and Access Control Groups',
  url: `${CUCM_DOCS}/admin/12_5_1/systemConfig/cucm_b_system-configuration-guide-1251/cucm_b_system-configuration-guide-1251_chapter_0100000.html`,
  confirms: [
    'Standard CCM Super Users (access control group)',
    'Standard CCM Admin Users (access control group, and the role of the same name)',
    'Standard CTI Allow Control of All Devices (access control group, and the role of the same name)',
    'Standard AXL API Access (a role; its standard access control group is Standard CCM Super Users)',
  ],
};
