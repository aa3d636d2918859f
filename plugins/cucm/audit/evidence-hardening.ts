// The evidence calls of the CUCM hardening checks. Common phone profiles are few and read whole; the
// phone-specific overrides of the same settings are kept per device and are not read (see
// checks-endpoints.ts).
import { cli, sql, axl } from './evidence.ts';

/**
 * The product-specific settings judged, the XML element CUCM keeps each under and the value that is the
 * weakness (webAccess, pcPort, spanToPCPort and garp are "disable" flags: 0 = enabled; settingsAccess:
 * 1 = enabled, 0 = disabled, 2 = restricted).
 */
export const PHONE_SETTINGS = [
  { element: 'webAccess', weak: '0', label: 'web access enabled' },
  { element: 'settingsAccess', weak: '1', label: 'Settings menu fully open' },
  { element: 'pcPort', weak: '0', label: 'PC port enabled' },
  { element: 'spanToPCPort', weak: '0', label: 'span to PC port enabled' },
  { element: 'garp', weak: '0', label: 'gratuitous ARP accepted' },
] as const;

export type PhoneSetting = (typeof PHONE_SETTINGS)[number];

export const weakPattern = (s: PhoneSetting): string => `<${s.element}>${s.weak}</${s.element}>`;

const CTI_ALL_DEVICES = 'Standard CTI Allow Control of All Devices';
const AXL_ACCESS = 'Standard AXL API Access';
/**
 * The two roles whose holders the audit names. Roles, not groups: a user holds one through any access
 * control group mapped to it (see role-holders.ts).
 */
export const HOLDER_ROLES = { cti: CTI_ALL_DEVICES, axl: AXL_ACCESS } as const;

// Role names compared case-insensitively: public texts spell the CTI role "... of all Devices".
const HOLDER_ROLE_LIST = `('${CTI_ALL_DEVICES.toLowerCase()}', '${AXL_ACCESS.toLowerCase()}')`;

export const EH = {
  commonPhoneProfiles: sql(
    'commonPhoneProfiles',
    'every common phone profile and its product-specific settings (XML)',
    'select c.name as name, x.xml as xml from commonphoneconfig c inner join commonphoneconfigxml x on x.fkcommonphoneconfig = c.pkid',
    true,
  ),
  ldapAuthentication: axl(
    'ldapAuthentication',
    'LDAP authentication of end users: on or off, and each server with its port and whether it uses TLS',
    'getLdapAuthentication',
    {},
  ),
  ldapDirectoryServers: sql(
    'ldapDirectoryServers',
    'the servers each LDAP directory synchronises from, with port and whether TLS is used',
    'select c.name, h.hostname, h.portnumber, h.sslenabled from directorypluginhost h inner join directorypluginconfig c on h.fkdirectorypluginconfig = c.pkid',
  ),
  // The role-to-group map and the membership join are the ones public scripts run against Unified CM
  // (the CUCM config tracker's access_control_groups_sql: functionroledirgroupmap joined to functionrole
  // and dirgroup).
  roleGroups: sql(
    'roleGroups',
    `the access control groups that carry the role ${CTI_ALL_DEVICES} or ${AXL_ACCESS}`,
    `select r.name as rolename, g.pkid as fkdirgroup, g.name as groupname from functionroledirgroupmap rg inner join functionrole r on rg.fkfunctionrole = r.pkid inner join dirgroup g on rg.fkdirgroup = g.pkid where lower(r.name) in ${HOLDER_ROLE_LIST}`,
  ),
  endUserHolders: sql(
    'endUserHolders',
    `end users holding the role ${CTI_ALL_DEVICES} or ${AXL_ACCESS}, and the group each holds it through`,
    `select r.name as rolename, g.name as groupname, u.userid as userid from enduserdirgroupmap m inner join dirgroup g on m.fkdirgroup = g.pkid inner join functionroledirgroupmap rg on rg.fkdirgroup = g.pkid inner join functionrole r on rg.fkfunctionrole = r.pkid inner join enduser u on m.fkenduser = u.pkid where lower(r.name) in ${HOLDER_ROLE_LIST}`,
  ),
  sso: cli('sso', 'whether SAML single sign-on is enabled on the node', 'utils sso status'),
  esm: cli('esm', 'whether Enhanced Security Mode is enabled', 'utils EnhancedSecurityMode status'),
  webTimeout: cli(
    'webTimeout',
    'minutes before an idle web application session ends',
    'show webapp session timeout',
  ),
  cliTimeout: cli('cliTimeout', 'minutes before an idle CLI session ends', 'show cli session timeout'),
  snmpCommunities: cli(
    'snmpCommunities',
    'SNMP v1/v2c community strings configured on the node',
    'utils snmp config 1/2c community-string list',
  ),
  snmpUsers: cli(
    'snmpUsers',
    'SNMPv3 users with their authentication and privacy protocols',
    'utils snmp config 3 user list',
  ),
};
