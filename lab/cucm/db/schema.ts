import type { TableSchema } from '../../informix/database.ts';
import { DIALPLAN_TABLES } from './schema-dialplan.ts';
import { HARDENING_TABLES } from './schema-hardening.ts';

/**
 * The slice of the CUCM Informix data dictionary the lab simulates. Table and column names follow
 * the real data dictionary where the lab models the same thing; values are the lab's own.
 */
export const CUCM_TABLES: readonly TableSchema[] = [
  { name: 'typemodel', columns: ['enum', 'name'], unique: [['enum']], readOnly: true },
  { name: 'typeclass', columns: ['enum', 'name'], unique: [['enum']], readOnly: true },
  { name: 'typedeviceprotocol', columns: ['enum', 'name'], unique: [['enum']], readOnly: true },
  { name: 'typeservice', columns: ['enum', 'name'], unique: [['enum']], readOnly: true },
  {
    name: 'processnode',
    columns: [
      'pkid',
      'name',
      'description',
      'mac',
      'ipv6name',
      'nodeid',
      'tknodeusage',
      'tkprocessnoderole',
      'isactive',
      'systemnode',
    ],
    unique: [['name']],
    defaults: {
      tknodeusage: '1',
      tkprocessnoderole: '1',
      isactive: 't',
      systemnode: 'f',
      description: '',
      mac: '',
      ipv6name: '',
    },
  },
  {
    name: 'processconfig',
    columns: ['pkid', 'fkprocessnode', 'tkservice', 'paramname', 'paramvalue', 'tkparam', 'description'],
    unique: [['fkprocessnode', 'tkservice', 'paramname']],
    references: { fkprocessnode: { table: 'processnode', onDelete: 'cascade' } },
    defaults: { tkparam: '3', description: '' },
  },
  {
    name: 'callmanager',
    columns: [
      'pkid',
      'name',
      'description',
      'fkprocessnode',
      'ctiid',
      'autoregistrationenabled',
      'autoregistrationstartdn',
      'autoregistrationenddn',
    ],
    unique: [['name']],
    references: { fkprocessnode: { table: 'processnode', onDelete: 'cascade' } },
    defaults: { description: '', autoregistrationenabled: 'f' },
  },
  {
    name: 'callmanagergroup',
    columns: ['pkid', 'name', 'tftpdefault'],
    unique: [['name']],
    defaults: { tftpdefault: 'f' },
  },
  {
    name: 'callmanagergroupmember',
    columns: ['pkid', 'fkcallmanagergroup', 'fkcallmanager', 'priority'],
    references: {
      fkcallmanagergroup: { table: 'callmanagergroup', onDelete: 'cascade' },
      fkcallmanager: { table: 'callmanager', onDelete: 'cascade' },
    },
  },
  {
    name: 'devicepool',
    columns: ['pkid', 'name', 'fkcallmanagergroup'],
    unique: [['name']],
    references: { fkcallmanagergroup: { table: 'callmanagergroup' } },
  },
  {
    name: 'routepartition',
    columns: ['pkid', 'name', 'description'],
    unique: [['name']],
    defaults: { description: '' },
  },
  {
    name: 'callingsearchspace',
    columns: ['pkid', 'name', 'description', 'clause'],
    unique: [['name']],
    defaults: { description: '', clause: '' },
  },
  {
    name: 'callingsearchspacemember',
    columns: ['pkid', 'fkcallingsearchspace', 'fkroutepartition', 'sortorder'],
    references: {
      fkcallingsearchspace: { table: 'callingsearchspace', onDelete: 'cascade' },
      fkroutepartition: { table: 'routepartition' },
    },
  },
  {
    name: 'securityprofile',
    columns: [
      'pkid',
      'name',
      'description',
      'tkmodel',
      'tkdeviceprotocol',
      'tksecuritymode',
      'tktransport',
      'tkoutgoingtransport',
      'enabledigestauthentication',
      'incomingport',
      'x509subjectname',
    ],
    unique: [['name']],
    defaults: {
      description: '',
      tksecuritymode: '1',
      tktransport: '4',
      tkoutgoingtransport: '1',
      enabledigestauthentication: 'f',
      incomingport: '5060',
      x509subjectname: '',
    },
  },
  {
    name: 'device',
    columns: [
      'pkid',
      'name',
      'description',
      'tkclass',
      'tkmodel',
      'tkproduct',
      'tkdeviceprotocol',
      'fkdevicepool',
      'fkcallingsearchspace',
      'fksecurityprofile',
      'fkenduser',
      'webaccess',
      'srtpallowed',
      'fkcallmanagergroup',
    ],
    unique: [['name']],
    references: {
      fkdevicepool: { table: 'devicepool' },
      // A route list's or hunt list's Unified CM group.
      fkcallmanagergroup: { table: 'callmanagergroup' },
      fkcallingsearchspace: { table: 'callingsearchspace', onDelete: 'null' },
      fksecurityprofile: { table: 'securityprofile' },
      fkenduser: { table: 'enduser', onDelete: 'null' },
    },
    // srtpallowed: a SIP trunk's "SRTP Allowed" (AXL srtpAllowed); the lab's column name.
    defaults: { description: '', webaccess: 't', srtpallowed: 'f' },
  },
  // A SIP trunk's SIP-specific row; its destinations hang off it (siptrunkdestination.fksipdevice), not
  // off the device: the join public scripts run on real clusters (plugins/cucm/audit/references.ts).
  {
    name: 'sipdevice',
    columns: ['pkid', 'fkdevice'],
    unique: [['fkdevice']],
    references: { fkdevice: { table: 'device', onDelete: 'cascade' } },
  },
  {
    name: 'siptrunkdestination',
    columns: ['pkid', 'fksipdevice', 'address', 'port', 'sortorder'],
    references: { fksipdevice: { table: 'sipdevice', onDelete: 'cascade' } },
  },
  {
    name: 'numplan',
    columns: [
      'pkid',
      'dnorpattern',
      'fkroutepartition',
      'description',
      'alertingname',
      'tkpatternusage',
      'authorizationrequired',
      'authorizationlevelrequired',
      'blockenable',
      'calledpartytransformationmask',
      'callingpartytransformationmask',
      'prefixdigitsout',
      'patternurgency',
      'fkcallmanager',
      'fkcallingsearchspace_translation',
    ],
    unique: [['dnorpattern', 'fkroutepartition']],
    references: {
      fkroutepartition: { table: 'routepartition' },
      // A call park number belongs to one node (fkcallmanager); a translation pattern has its own CSS.
      fkcallmanager: { table: 'callmanager', onDelete: 'cascade' },
      fkcallingsearchspace_translation: { table: 'callingsearchspace', onDelete: 'null' },
    },
    // A route pattern's forced authorization code (FAC): required, and the level a code must have.
    defaults: {
      description: '',
      alertingname: '',
      tkpatternusage: '2',
      authorizationrequired: 'f',
      authorizationlevelrequired: '0',
      blockenable: 'f',
      calledpartytransformationmask: '',
      callingpartytransformationmask: '',
      prefixdigitsout: '',
      patternurgency: 'f',
    },
  },
  {
    name: 'devicenumplanmap',
    columns: ['pkid', 'fkdevice', 'fknumplan', 'numplanindex', 'display', 'label'],
    unique: [['fkdevice', 'numplanindex']],
    references: {
      fkdevice: { table: 'device', onDelete: 'cascade' },
      fknumplan: { table: 'numplan', onDelete: 'cascade' },
    },
    defaults: { display: '', label: '' },
  },
  {
    name: 'enduser',
    columns: [
      'pkid',
      'userid',
      'firstname',
      'middlename',
      'lastname',
      'displayname',
      'mailid',
      'telephonenumber',
      'department',
      'title',
      'directoryuri',
      'status',
      'enablecups',
      'enablemobility',
      'islocaluser',
    ],
    unique: [['userid']],
    defaults: {
      firstname: '',
      middlename: '',
      lastname: '',
      displayname: '',
      mailid: '',
      telephonenumber: '',
      department: '',
      title: '',
      directoryuri: '',
      status: '1',
      enablecups: 'f',
      enablemobility: 'f',
      islocaluser: 't',
    },
  },
  {
    name: 'enduserdevicemap',
    columns: ['pkid', 'fkenduser', 'fkdevice', 'tkuserassociation'],
    unique: [['fkenduser', 'fkdevice', 'tkuserassociation']],
    references: {
      fkenduser: { table: 'enduser', onDelete: 'cascade' },
      fkdevice: { table: 'device', onDelete: 'cascade' },
    },
    defaults: { tkuserassociation: '1' },
  },
  {
    name: 'applicationuser',
    columns: ['pkid', 'name', 'description', 'isstandard'],
    unique: [['name']],
    defaults: { description: '', isstandard: 'f' },
  },
  {
    name: 'dirgroup',
    columns: ['pkid', 'name', 'description', 'isstandard'],
    unique: [['name']],
    defaults: { description: '', isstandard: 't' },
  },
  {
    name: 'enduserdirgroupmap',
    columns: ['pkid', 'fkenduser', 'fkdirgroup'],
    unique: [['fkenduser', 'fkdirgroup']],
    references: {
      fkenduser: { table: 'enduser', onDelete: 'cascade' },
      fkdirgroup: { table: 'dirgroup', onDelete: 'cascade' },
    },
  },
  {
    name: 'applicationuserdirgroupmap',
    columns: ['pkid', 'fkapplicationuser', 'fkdirgroup'],
    unique: [['fkapplicationuser', 'fkdirgroup']],
    references: {
      fkapplicationuser: { table: 'applicationuser', onDelete: 'cascade' },
      fkdirgroup: { table: 'dirgroup', onDelete: 'cascade' },
    },
  },
  // Roles and the groups that carry them (names as public scripts query them on Unified CM: the CUCM
  // config tracker's access_control_groups_sql); a user holds a role only through a group.
  {
    name: 'functionrole',
    columns: ['pkid', 'name', 'description', 'isstandard'],
    unique: [['name']],
    defaults: { description: '', isstandard: 't' },
  },
  {
    name: 'functionroledirgroupmap',
    columns: ['pkid', 'fkfunctionrole', 'fkdirgroup'],
    unique: [['fkfunctionrole', 'fkdirgroup']],
    references: {
      fkfunctionrole: { table: 'functionrole', onDelete: 'cascade' },
      fkdirgroup: { table: 'dirgroup', onDelete: 'cascade' },
    },
  },
  {
    name: 'credentialpolicy',
    columns: [
      'pkid',
      'displayname',
      'failedlogon',
      'resetfailedlogonminutes',
      'lockoutduration',
      'credchangeduration',
      'credexpiresafterdays',
      'minimumlength',
      'previouscredstostore',
      'inactivedaysallowed',
      'expirywarningdays',
      'trivialcredcheck',
      'mincharstochange',
    ],
    unique: [['displayname']],
  },
  {
    name: 'credential',
    columns: [
      'pkid',
      'fkenduser',
      'fkapplicationuser',
      'tkcredential',
      'credentials',
      'fkcredentialpolicy',
      'timechanged',
      'usermustchange',
      'doesnotexpire',
      'hackcount',
    ],
    references: {
      fkenduser: { table: 'enduser', onDelete: 'cascade' },
      fkapplicationuser: { table: 'applicationuser', onDelete: 'cascade' },
      fkcredentialpolicy: { table: 'credentialpolicy' },
    },
    defaults: { usermustchange: 'f', doesnotexpire: 'f', hackcount: '0' },
  },
  ...DIALPLAN_TABLES,
  ...HARDENING_TABLES,
];

/** Credential kinds (typecredential): what a `credential` row holds. */
export const CREDENTIAL_PASSWORD = '3';
export const CREDENTIAL_PIN = '4';
/** typepatternusage: a directory number, a route pattern. */
export const PATTERN_DEVICE = '2';
export const PATTERN_ROUTE = '5';
/** typeuserassociation: the end user controls the device (what phone web access checks). */
export const USER_CONTROLS_DEVICE = '1';
/** The service enum of enterprise parameters, which live on the EnterpriseWideData process node. */
export const SERVICE_ENTERPRISE_WIDE = '11';
/** Service enums of the Cisco CallManager service and the audit log settings (lab numbers). */
export const SERVICE_CALLMANAGER = '0';
export const SERVICE_AUDIT_EVENT = '12';
export const ENTERPRISE_NODE = 'EnterpriseWideData';
