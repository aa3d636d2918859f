// The evidence calls of the CUCM hardening checks. A cluster's phones are judged in one aggregate
// query (one row of counts, whatever the number of phones); common phone profiles are few and read whole.
import { cli, sql, axl } from './evidence.ts';

/**
 * The product-specific settings judged, the XML element CUCM keeps each under, the value that is the
 * weakness (webAccess, pcPort, spanToPCPort and garp are "disable" flags: 0 = enabled; settingsAccess:
 * 1 = enabled, 0 = disabled, 2 = restricted) and the column of the count query.
 */
export const PHONE_SETTINGS = [
  { element: 'webAccess', weak: '0', column: 'webaccess', label: 'web access enabled' },
  { element: 'settingsAccess', weak: '1', column: 'settingsaccess', label: 'Settings menu fully open' },
  { element: 'pcPort', weak: '0', column: 'pcport', label: 'PC port enabled' },
  { element: 'spanToPCPort', weak: '0', column: 'spantopcport', label: 'span to PC port enabled' },
  { element: 'garp', weak: '0', column: 'garp', label: 'gratuitous ARP accepted' },
] as const;

export type PhoneSetting = (typeof PHONE_SETTINGS)[number];

export const weakPattern = (s: PhoneSetting): string => `<${s.element}>${s.weak}</${s.element}>`;

const CTI_ALL_DEVICES = 'Standard CTI Allow Control of All Devices';
const AXL_ACCESS = 'Standard AXL API Access';
export const HOLDER_GROUPS = { cti: CTI_ALL_DEVICES, axl: AXL_ACCESS } as const;

export const EH = {
  phoneSettingCounts: sql(
    'phoneSettingCounts',
    'how many phones carry each weak product-specific setting (one row of counts for the whole cluster)',
    `select count(*) as phones, ${PHONE_SETTINGS.map(
      (s) => `sum(case when xml like '%${weakPattern(s)}%' then 1 else 0 end) as ${s.column}`,
    ).join(', ')} from device where tkclass = 1`,
  ),
  phoneProfiles: sql(
    'phoneProfiles',
    'every common phone profile and its product-specific settings (XML)',
    'select name, xml from commonphoneconfig',
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
  endUserHolders: sql(
    'endUserHolders',
    `end users in ${CTI_ALL_DEVICES} or ${AXL_ACCESS}`,
    `select g.name as groupname, u.userid from enduserdirgroupmap m inner join dirgroup g on m.fkdirgroup = g.pkid inner join enduser u on m.fkenduser = u.pkid where g.name in ('${CTI_ALL_DEVICES}', '${AXL_ACCESS}')`,
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
