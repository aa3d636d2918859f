// The public sources for the VOS CLI that CUCM, IM and Presence and Unity Connection share: one platform,
// one command set, so one source confirms a command (and the lines it prints) for all three audits. Every
// entry was read at its URL; `confirms` lists only what that text shows.
import type { Reference } from './checklist.ts';

const CUCM_DOCS = 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cucm';
const CLI_GUIDE = 'Command Line Interface Reference Guide for Cisco Unified Communications Solutions';
const CLI_UTILS_URL = `${CUCM_DOCS}/cli_ref/12_5_1SU5/cucm_b_cli_reference-guide_release1251SU5/cucm_b_cli_reference_guide_release_1401_chapter_01001.html`;
const CLI_SHOW_URL = `${CUCM_DOCS}/cli_ref/12_5_1SU3/cucm_b_command-line-interface-reference-guide_1251su3/cucm_b_command-line-interface-reference-guide-1251Su2_chapter_0111.html`;

/** The CLI reference's Utils Commands chapter, narrowed to the commands a check cites. */
export function vosCliUtils(section: string, confirms: string[]): Reference {
  return {
    document: CLI_GUIDE,
    release: '12.5(1)SU5',
    section: `Utils Commands: ${section}`,
    url: CLI_UTILS_URL,
    confirms,
  };
}

/** The CLI reference's Show Commands chapter, narrowed to the commands a check cites. */
export function vosCliShow(section: string, confirms: string[]): Reference {
  return {
    document: CLI_GUIDE,
    release: '12.5(1)SU3',
    section: `Show Commands: ${section}`,
    url: CLI_SHOW_URL,
    confirms,
  };
}

/** `show tls min-version` and the line it prints (the PCD guide shows it for every VOS product). */
export const VOS_TLS_MIN_VERSION: Reference = {
  document: 'Prime Collaboration Deployment Administration Guide',
  release: '14 and SUs',
  section: 'CLI Commands and Disaster Recovery System: CLI Commands for TLS Minimum Version Configuration',
  url: `${CUCM_DOCS}/pcdadmin/14/cucm_b_pcd-admin-guide-1401/cucm_b_pcd-admin-guide-1401_chapter_0110.html`,
  confirms: ['show tls min-version', 'Configured TLS minimum version: 1.0', 'set tls min-version 1.2'],
};

export const VOS_FIPS_COMMANDS: Reference = {
  document: 'Prime Collaboration Deployment Administration Guide',
  release: '15 and SUs',
  section: 'CLI Commands for EnhancedSecurityMode and FIPS Mode: CLI Commands for FIPS Mode',
  url: `${CUCM_DOCS}/pcdadmin/15/cucm_b_pcd-admin-guide-15/cucm_b_pcd-admin-guide-1401_chapter_0111.html`,
  confirms: ['utils fips status'],
};

/** The synchronised answer of `utils ntp status` (an IM&P node; the VOS platform prints the same). */
export const VOS_NTP_SYNCHRONISED: Reference = {
  document: 'Troubleshoot NTP on IM&P (Cisco TAC, document 200771)',
  release: 'updated 2022-10-18',
  section: 'NTP Status Output Explanation',
  url: 'https://www.cisco.com/c/en/us/support/docs/unified-communications/unified-communications-manager-im-presence-service/200771-Troubleshooting-NTP-on-IM-P.html',
  confirms: ['utils ntp status', 'synchronised to NTP server (10.0.0.1) at stratum 3'],
};

/** The unsynchronised answer of `utils ntp status`. */
export const VOS_NTP_UNSYNCHRONISED: Reference = {
  document: 'Configure and Troubleshoot NTP on CUCM and IM&P (Cisco TAC, document 215537)',
  release: 'updated 2023-11-22',
  section: 'Troubleshoot: CLI Output Review for CUCM (utils ntp status output)',
  url: 'https://www.cisco.com/c/en/us/support/docs/unified-communications/unified-communications-manager-callmanager/215537-network-time-protocol-ntp-on-cucm.html',
  confirms: ['unsynchronised'],
};

/** A health check that shows `utils ntp status` (both spellings) and `utils service list` on a VOS node. */
export const VOS_HEALTH_CHECK: Reference = {
  document: 'Perform a Health Check of CUCM Database Replication (Document ID 215013)',
  release: 'VOS platform (CUCM 10.5(2); July 17, 2025)',
  section: 'Connectivity Verification: utils ntp status',
  url: 'https://www.cisco.com/c/en/us/support/docs/unified-communications/unified-communications-manager-callmanager/215013-how-to-perform-a-health-check-of-cucm-da.html',
  confirms: [
    'utils ntp status',
    'synchronised to NTP server',
    'synchronized to NTP server',
    'utils service list',
    '<service> [STARTED]',
  ],
};

/** `utils service list` as a VOS node prints it: `<service>[STARTED]`, `[STOPPED]  Service Not Activated`. */
export const VOS_SERVICE_LIST: Reference = {
  document: 'Operations Guide for Cisco Virtualized Voice Browser',
  release: '12.6(1)',
  section: 'Command Line Interface: utils service list (Example)',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cust_contact/contact_center/cisco_vvb/vvb12_6/operations/ccvp_b_1261-operations-guide-for-cisco-virtualized-voice-browser/ccvp_b_1252-operations-guide-for-cisco-virtualized-voice-browser_appendix_010.html',
  confirms: [
    'Cisco Audit Event Service[STARTED]',
    'Platform Administrative Web Service[STARTED]',
    'Cisco DirSync[STOPPED]  Service Not Activated',
  ],
};

/** The same `Name[STARTED]` line format in another product's guide on the platform. */
export const VOS_SERVICE_LIST_FINESSE: Reference = {
  document: 'Cisco Finesse Installation and Upgrade Guide',
  release: '12.6(1)',
  section: 'Network and System Services Used for Cisco Finesse (utils service list output)',
  url: 'https://www.cisco.com/c/en/us/td/docs/voice_ip_comm/cust_contact/contact_center/finesse/finesse_1261/installation/guide/cfin_b_1261-cisco-finesse-installation-and-upgrade/cfin_b_1251-cisco-finesse-installation-and-upgrade_appendix_0110.html',
  confirms: ['Cisco Audit Event Service[STARTED]'],
};

/** The AXL 15.0 schema (AXLSoap.xsd, AXLAPI.wsdl): operations, their list types and returnedTags. */
export function axlSchema(
  confirms: string[],
  section = 'AXLAPI.wsdl operations and AXLSoap.xsd list types',
): Reference {
  return {
    document: 'Cisco AXL Schema Reference',
    release: '15.0',
    section,
    url: 'https://developer.cisco.com/docs/axl-schema-reference/',
    confirms,
  };
}
