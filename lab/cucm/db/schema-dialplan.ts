import type { TableSchema } from '../../informix/database.ts';

/**
 * Tables of the dial plan, media resources, locations and LDAP families. Names follow the CUCM data
 * dictionary where the lab remembers them (routegroup, routegroupdevicemap, routelist, linegroup,
 * linegroupnumplanmap, region, location, datetimesetting, commondeviceconfig, commonphoneconfig,
 * mediaresourcegroup, mediaresourcelist, sipprofile, srst, aarneighborhood, physicallocation,
 * devicemobilitygroup, directorypluginconfig, voicemessagingpilot, voicemessagingprofile); no public
 * source at hand confirms them, nor the column names marked "lab name" below.
 */
export const DIALPLAN_TABLES: readonly TableSchema[] = [
  {
    name: 'routegroup',
    columns: ['pkid', 'name', 'tkdistributealgorithm'],
    unique: [['name']],
    defaults: { tkdistributealgorithm: '1' },
  },
  {
    name: 'routegroupdevicemap',
    columns: ['pkid', 'fkroutegroup', 'fkdevice', 'deviceselectionorder', 'port'],
    references: {
      fkroutegroup: { table: 'routegroup', onDelete: 'cascade' },
      fkdevice: { table: 'device', onDelete: 'cascade' },
    },
    defaults: { port: '0' },
  },
  {
    // A route list's (or hunt list's) ordered members: route groups, or line groups for a hunt list.
    name: 'routelist',
    columns: ['pkid', 'fkdevice', 'fkroutegroup', 'fklinegroup', 'selectionorder'],
    references: {
      fkdevice: { table: 'device', onDelete: 'cascade' },
      fkroutegroup: { table: 'routegroup', onDelete: 'cascade' },
      fklinegroup: { table: 'linegroup', onDelete: 'cascade' },
    },
  },
  {
    name: 'linegroup',
    columns: ['pkid', 'name', 'rnareversiontimeout', 'tkdistributealgorithm'],
    unique: [['name']],
    defaults: { rnareversiontimeout: '10', tkdistributealgorithm: '1' },
  },
  {
    name: 'linegroupnumplanmap',
    columns: ['pkid', 'fklinegroup', 'fknumplan', 'lineselectionorder'],
    references: {
      fklinegroup: { table: 'linegroup', onDelete: 'cascade' },
      fknumplan: { table: 'numplan', onDelete: 'cascade' },
    },
  },
  { name: 'region', columns: ['pkid', 'name'], unique: [['name']] },
  {
    name: 'location',
    // withinaudiobandwidth, withinvideobandwidth, withinimmersivekbits: lab names.
    columns: ['pkid', 'name', 'withinaudiobandwidth', 'withinvideobandwidth', 'withinimmersivekbits'],
    unique: [['name']],
    defaults: { withinaudiobandwidth: '0', withinvideobandwidth: '384', withinimmersivekbits: '384' },
  },
  {
    name: 'datetimesetting',
    // timezone (the zone's name, where CUCM keeps a type enum) and dateformat: lab names.
    columns: ['pkid', 'name', 'timezone', 'dateformat'],
    unique: [['name']],
    defaults: { timezone: 'Etc/GMT', dateformat: 'M/D/Y' },
  },
  {
    name: 'commondeviceconfig',
    columns: ['pkid', 'name', 'usetrustedrelaypoint'],
    unique: [['name']],
    defaults: { usetrustedrelaypoint: 'f' },
  },
  {
    name: 'commonphoneconfig',
    columns: ['pkid', 'name', 'description', 'sshuserid'],
    unique: [['name']],
    defaults: { description: '', sshuserid: '' },
  },
  // A common phone profile's product-specific configuration (vendorConfig) as XML, in its own table as on
  // a real node (lab/cucm/seed-hardening.ts).
  {
    name: 'commonphoneconfigxml',
    columns: ['pkid', 'fkcommonphoneconfig', 'xml'],
    unique: [['fkcommonphoneconfig']],
    references: { fkcommonphoneconfig: { table: 'commonphoneconfig', onDelete: 'cascade' } },
    defaults: { xml: '' },
  },
  {
    name: 'mediaresourcegroup',
    columns: ['pkid', 'name', 'description', 'multicast'],
    unique: [['name']],
    defaults: { description: '', multicast: 'f' },
  },
  {
    name: 'mediaresourcegroupmember',
    columns: ['pkid', 'fkmediaresourcegroup', 'fkdevice'],
    references: {
      fkmediaresourcegroup: { table: 'mediaresourcegroup', onDelete: 'cascade' },
      fkdevice: { table: 'device', onDelete: 'cascade' },
    },
  },
  { name: 'mediaresourcelist', columns: ['pkid', 'name'], unique: [['name']] },
  {
    name: 'mediaresourcelistmember',
    columns: ['pkid', 'fkmediaresourcelist', 'fkmediaresourcegroup', 'sortorder'],
    references: {
      fkmediaresourcelist: { table: 'mediaresourcelist', onDelete: 'cascade' },
      fkmediaresourcegroup: { table: 'mediaresourcegroup', onDelete: 'cascade' },
    },
  },
  {
    name: 'sipprofile',
    columns: ['pkid', 'name', 'description'],
    unique: [['name']],
    defaults: { description: '' },
  },
  {
    name: 'srst',
    // ipaddress, sipport: lab names.
    columns: ['pkid', 'name', 'ipaddress', 'port', 'sipport'],
    unique: [['name']],
    defaults: { port: '2000', sipport: '5060' },
  },
  { name: 'aarneighborhood', columns: ['pkid', 'name'], unique: [['name']] },
  {
    name: 'physicallocation',
    columns: ['pkid', 'name', 'description'],
    unique: [['name']],
    defaults: { description: '' },
  },
  {
    name: 'devicemobilitygroup',
    columns: ['pkid', 'name', 'description'],
    unique: [['name']],
    defaults: { description: '' },
  },
  {
    name: 'directorypluginconfig',
    // ldapdn, ldappassword, usersearchbase, syncinterval, scheduleunit, nextexectime: lab names.
    columns: [
      'pkid',
      'name',
      'ldapdn',
      'ldappassword',
      'usersearchbase',
      'syncinterval',
      'scheduleunit',
      'nextexectime',
      'lastsyncstatus',
    ],
    unique: [['name']],
    defaults: {
      syncinterval: '7',
      scheduleunit: 'DAY',
      nextexectime: '',
      lastsyncstatus: '',
      ldappassword: '',
    },
  },
  {
    // The cluster's LDAP synchronisation settings (one row). Table and columns: lab names.
    name: 'ldapsystemconfig',
    columns: ['pkid', 'syncenabled', 'tkldapserver', 'useridattribute'],
    defaults: { syncenabled: 'f', tkldapserver: '0', useridattribute: 'sAMAccountName' },
  },
  {
    // LDAP authentication for end users (one row). Table and columns: lab names.
    name: 'ldapauthentication',
    columns: ['pkid', 'authenticateendusers', 'distinguishedname', 'ldappassword', 'usersearchbase'],
    defaults: { authenticateendusers: 'f', distinguishedname: '', ldappassword: '', usersearchbase: '' },
  },
  {
    name: 'voicemessagingpilot',
    columns: ['pkid', 'directorynumber', 'description', 'fkcallingsearchspace', 'isdefault'],
    unique: [['directorynumber', 'fkcallingsearchspace']],
    references: { fkcallingsearchspace: { table: 'callingsearchspace', onDelete: 'null' } },
    defaults: { description: '', isdefault: 'f' },
  },
  {
    name: 'voicemessagingprofile',
    columns: ['pkid', 'name', 'description', 'isdefault', 'voicemailboxmask'],
    unique: [['name']],
    defaults: { description: '', isdefault: 'f', voicemailboxmask: '' },
  },
];

/** typepatternusage enums, in the order of the AXL 15.0 XPatternUsage enumeration. */
export const PATTERN_USAGE = {
  callPark: '0',
  conference: '1',
  device: '2',
  translation: '3',
  route: '5',
  huntPilot: '7',
  directedCallPark: '12',
  callingTransformation: '15',
  calledTransformation: '20',
} as const;
