import {
  INCOMING_TRANSPORTS,
  NODE_ROLES,
  NODE_USAGES,
  OUTGOING_TRANSPORTS,
  PARAM_TYPES,
  PROTOCOL_SIP,
  SECURITY_MODES,
  SERVICES,
  SIP_TRUNK_MODEL,
} from '../../db/types.ts';
import type { Family } from '../family.ts';

export const processNodeFamily: Family = {
  name: 'ProcessNode',
  tag: 'processNode',
  label: 'Process Node',
  table: 'processnode',
  keys: ['name'],
  rename: { element: 'newName', field: 'name' },
  where: { systemnode: 'f' },
  fields: [
    { axl: 'name', column: 'name' },
    { axl: 'description', column: 'description' },
    { axl: 'mac', column: 'mac' },
    { axl: 'ipv6Name', column: 'ipv6name' },
    // Whether a node is the publisher is set at install, never through AXL.
    { axl: 'nodeUsage', column: 'tknodeusage', type: 'enum', values: NODE_USAGES, skipIn: ['add', 'update'] },
    {
      axl: 'processNodeRole',
      column: 'tkprocessnoderole',
      type: 'enum',
      values: NODE_ROLES,
      skipIn: ['update'],
    },
  ],
  required: ['name'],
  search: ['name', 'description', 'processNodeRole'],
  ops: ['get', 'list', 'add', 'update', 'remove'],
};

export const callManagerFamily: Family = {
  name: 'CallManager',
  tag: 'callManager',
  label: 'Cisco Unified CM',
  table: 'callmanager',
  keys: ['name'],
  rename: { element: 'newName', field: 'name' },
  fields: [
    { axl: 'name', column: 'name' },
    { axl: 'description', column: 'description' },
    { axl: 'autoRegistration/startDn', column: 'autoregistrationstartdn' },
    { axl: 'autoRegistration/endDn', column: 'autoregistrationenddn' },
    { axl: 'autoRegistration/autoRegistrationEnabled', column: 'autoregistrationenabled', type: 'bool' },
    {
      axl: 'processNodeName',
      column: 'fkprocessnode',
      type: 'fk',
      table: 'processnode',
      display: 'name',
      skipIn: ['update'],
    },
  ],
  required: ['name'],
  search: ['name', 'description'],
  ops: ['get', 'list', 'update', 'apply', 'reset', 'restart'],
};

/** Service parameters, and enterprise parameters too: those sit on the EnterpriseWideData node. */
export const serviceParameterFamily: Family = {
  name: 'ServiceParameter',
  tag: 'serviceParameter',
  label: 'Service Parameter',
  table: 'processconfig',
  keys: ['processNodeName', 'name', 'service'],
  fields: [
    { axl: 'processNodeName', column: 'fkprocessnode', type: 'fk', table: 'processnode', display: 'name' },
    { axl: 'name', column: 'paramname' },
    { axl: 'service', column: 'tkservice', type: 'enum', values: SERVICES },
    { axl: 'value', column: 'paramvalue' },
    { axl: 'valueType', column: 'tkparam', type: 'enum', values: PARAM_TYPES, skipIn: ['update'] },
  ],
  required: ['processNodeName', 'name', 'service'],
  search: ['processNodeName', 'service'],
  ops: ['get', 'list', 'update'],
};

export const sipTrunkSecurityProfileFamily: Family = {
  name: 'SipTrunkSecurityProfile',
  tag: 'sipTrunkSecurityProfile',
  label: 'SIP Trunk Security Profile',
  table: 'securityprofile',
  keys: ['name'],
  rename: { element: 'newName', field: 'name' },
  where: { tkmodel: SIP_TRUNK_MODEL, tkdeviceprotocol: PROTOCOL_SIP },
  fields: [
    { axl: 'name', column: 'name' },
    { axl: 'description', column: 'description' },
    { axl: 'securityMode', column: 'tksecuritymode', type: 'enum', values: SECURITY_MODES },
    { axl: 'incomingTransport', column: 'tktransport', type: 'enum', values: INCOMING_TRANSPORTS },
    { axl: 'outgoingTransport', column: 'tkoutgoingtransport', type: 'enum', values: OUTGOING_TRANSPORTS },
    { axl: 'digestAuthentication', column: 'enabledigestauthentication', type: 'bool' },
    { axl: 'x509SubjectName', column: 'x509subjectname' },
    { axl: 'incomingPort', column: 'incomingport' },
  ],
  required: ['name'],
  search: ['name', 'description'],
  ops: ['get', 'list', 'add', 'update', 'remove', 'apply', 'reset'],
};
