import {
  INCOMING_TRANSPORTS,
  PHONE_PRODUCTS,
  PROTOCOLS,
  SECURITY_MODES,
  SIP_TRUNK_MODEL,
} from '../../db/types.ts';
import type { Family } from '../family.ts';
import { bool, CRUD, descriptionField, enumField, fk, named, nameField, text } from './builder.ts';
import { memberList } from './members.ts';

export const regionFamily: Family = named({
  name: 'Region',
  tag: 'region',
  label: 'Region',
  table: 'region',
  fields: [nameField],
  ops: [...CRUD, 'apply', 'restart'],
});

export const locationFamily: Family = named({
  name: 'Location',
  tag: 'location',
  label: 'Location',
  table: 'location',
  fields: [
    nameField,
    text('withinAudioBandwidth', 'withinaudiobandwidth'),
    text('withinVideoBandwidth', 'withinvideobandwidth'),
    text('withinImmersiveKbits', 'withinimmersivekbits'),
  ],
});

export const dateTimeGroupFamily: Family = named({
  name: 'DateTimeGroup',
  tag: 'dateTimeGroup',
  label: 'Date/Time Group',
  table: 'datetimesetting',
  fields: [nameField, text('timeZone', 'timezone'), text('dateformat', 'dateformat')],
  search: ['name', 'timeZone'],
  ops: [...CRUD, 'apply', 'reset'],
});

export const callManagerGroupFamily: Family = named({
  name: 'CallManagerGroup',
  tag: 'callManagerGroup',
  label: 'Cisco Unified CM Group',
  table: 'callmanagergroup',
  fields: [nameField, bool('tftpDefault', 'tftpdefault')],
  nested: [
    memberList({
      table: 'callmanagergroupmember',
      owner: 'fkcallmanagergroup',
      order: 'priority',
      parts: [
        { axl: 'callManagerName', column: 'fkcallmanager', fk: { table: 'callmanager', display: 'name' } },
        { axl: 'priority', column: 'priority' },
      ],
    }),
  ],
  ops: [...CRUD, 'apply', 'reset'],
});

export const commonDeviceConfigFamily: Family = named({
  name: 'CommonDeviceConfig',
  tag: 'commonDeviceConfig',
  label: 'Common Device Configuration',
  table: 'commondeviceconfig',
  fields: [nameField, bool('useTrustedRelayPoint', 'usetrustedrelaypoint')],
  ops: [...CRUD, 'apply', 'reset'],
});

export const commonPhoneConfigFamily: Family = named({
  name: 'CommonPhoneConfig',
  tag: 'commonPhoneConfig',
  label: 'Common Phone Profile',
  table: 'commonphoneconfig',
  fields: [nameField, descriptionField, text('sshUserId', 'sshuserid')],
  ops: [...CRUD, 'apply', 'reset'],
});

export const sipProfileFamily: Family = named({
  name: 'SipProfile',
  tag: 'sipProfile',
  label: 'SIP Profile',
  table: 'sipprofile',
  fields: [nameField, descriptionField],
  search: ['name', 'description'],
  ops: [...CRUD, 'apply', 'restart'],
});

export const srstFamily: Family = named({
  name: 'Srst',
  tag: 'srst',
  label: 'SRST',
  table: 'srst',
  fields: [nameField, text('port', 'port'), text('ipAddress', 'ipaddress'), text('SipPort', 'sipport')],
  search: ['name', 'ipAddress'],
  ops: [...CRUD, 'apply', 'reset', 'restart'],
});

export const aarGroupFamily: Family = named({
  name: 'AarGroup',
  tag: 'aarGroup',
  label: 'AAR Group',
  table: 'aarneighborhood',
  fields: [nameField],
});

export const physicalLocationFamily: Family = named({
  name: 'PhysicalLocation',
  tag: 'physicalLocation',
  label: 'Physical Location',
  table: 'physicallocation',
  fields: [nameField, descriptionField],
  search: ['name', 'description'],
});

export const deviceMobilityGroupFamily: Family = named({
  name: 'DeviceMobilityGroup',
  tag: 'deviceMobilityGroup',
  label: 'Device Mobility Group',
  table: 'devicemobilitygroup',
  fields: [nameField, descriptionField],
  search: ['name', 'description'],
});

/** Phone security profiles share securityprofile with trunks' ones, one per phone model and protocol. */
export const phoneSecurityProfileFamily: Family = named({
  name: 'PhoneSecurityProfile',
  tag: 'phoneSecurityProfile',
  label: 'Phone Security Profile',
  table: 'securityprofile',
  matches: (row) => row.tkmodel !== SIP_TRUNK_MODEL,
  fields: [
    // tkmodel 0: the model-independent profile of the Universal Device Template.
    {
      ...enumField('phoneType', 'tkmodel', { ...PHONE_PRODUCTS, '0': 'Universal Device Template' }),
      skipIn: ['update'],
    },
    { ...enumField('protocol', 'tkdeviceprotocol', PROTOCOLS), skipIn: ['update'] },
    nameField,
    descriptionField,
    enumField('deviceSecurityMode', 'tksecuritymode', SECURITY_MODES),
    enumField('transportType', 'tktransport', INCOMING_TRANSPORTS),
    bool('enableDigestAuthentication', 'enabledigestauthentication'),
  ],
  required: ['phoneType', 'protocol', 'name'],
  search: ['name', 'description'],
  ops: [...CRUD, 'apply', 'reset'],
});

export const userGroupFamily: Family = named({
  name: 'UserGroup',
  tag: 'userGroup',
  label: 'User Group',
  table: 'dirgroup',
  fields: [nameField],
});

export const voiceMailPilotFamily: Family = {
  name: 'VoiceMailPilot',
  tag: 'voiceMailPilot',
  label: 'Voice Mail Pilot',
  table: 'voicemessagingpilot',
  keys: ['dirn', 'cssName'],
  fields: [
    text('dirn', 'directorynumber'),
    descriptionField,
    fk('cssName', 'fkcallingsearchspace', 'callingsearchspace'),
    bool('isDefault', 'isdefault'),
  ],
  required: ['dirn'],
  search: ['dirn', 'description', 'cssName'],
  ops: CRUD,
};

export const voiceMailProfileFamily: Family = named({
  name: 'VoiceMailProfile',
  tag: 'voiceMailProfile',
  label: 'Voice Mail Profile',
  table: 'voicemessagingprofile',
  fields: [
    nameField,
    descriptionField,
    bool('isDefault', 'isdefault'),
    text('voiceMailboxMask', 'voicemailboxmask'),
  ],
  ops: [...CRUD, 'apply', 'reset', 'restart'],
});

export const SITE_FAMILIES: readonly Family[] = [
  regionFamily,
  locationFamily,
  dateTimeGroupFamily,
  callManagerGroupFamily,
  commonDeviceConfigFamily,
  commonPhoneConfigFamily,
  sipProfileFamily,
  srstFamily,
  aarGroupFamily,
  physicalLocationFamily,
  deviceMobilityGroupFamily,
  phoneSecurityProfileFamily,
  userGroupFamily,
  voiceMailPilotFamily,
  voiceMailProfileFamily,
];
